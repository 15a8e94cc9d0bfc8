import Testing
@testable import GPSDProtocol

@Suite("Request reader")
struct RequestReaderTests {
    /// What the reader makes of `text` fed in pieces of the given sizes.
    func read(_ text: String, pieces: Int? = nil, maximumLength: Int = 4096) -> [Result<ClientRequest, ProtocolError>] {
        var reader = RequestReader(maximumLength: maximumLength)
        var results: [Result<ClientRequest, ProtocolError>] = []
        let bytes = Array(text.utf8)
        let size = pieces ?? max(1, bytes.count)
        var start = 0
        while start < bytes.count {
            reader.feed(bytes[start..<min(bytes.count, start + size)]) { results.append($0) }
            start += size
        }
        return results
    }

    static let session = """
        ?VERSION;?WATCH={"enable":true,"json":true};
        ?POLL;
        ?DEVICES
        not a request: ignored; ?VERSION; on it too
        ?WATCH={"device":"/dev/a;b","nmea":true}?DEVICE;?WATCH;
        """

    @Test("several requests per read, `;` or a line end after each, and lines not starting with ? ignored")
    func whole() throws {
        let results = read(Self.session)
        let requests = try results.map { try $0.get() }
        #expect(requests == [
            .version, .watch(["enable": .bool(true), "json": .bool(true)]), .poll, .devices,
            .watch(["device": .string("/dev/a;b"), "nmea": .bool(true)]), .device(nil), .watch(nil),
        ])
    }

    @Test("requests split at every byte read the same as whole")
    func everySplit() {
        let whole = read(Self.session)
        for size in 1...12 {
            #expect(read(Self.session, pieces: size) == whole, "pieces of \(size)")
        }
    }

    @Test("an unknown request, and a malformed argument, are errors naming what is wrong; the next request is read")
    func errors() {
        let results = read("?FOO;?WATCH={\"enable\":tru};?WATCH={\"x\":[1]};?VERSION;")
        #expect(results.count == 4)
        #expect(results[0] == .failure(.unrecognized("?FOO")))
        if case .failure(.invalidArguments)? = results.dropFirst().first {} else { Issue.record("\(results[1])") }
        if case .failure(.invalidArguments)? = results.dropFirst(2).first {} else { Issue.record("\(results[2])") }
        #expect(results[3] == .success(.version))
        #expect(ProtocolError.unrecognized("?FOO").message == "Unrecognized request '?FOO'")
    }

    @Test("a request past the limit is refused once and skipped to its line end; a megabyte with no line end holds nothing")
    func tooLong() {
        let long = "?WATCH={\"device\":\"" + String(repeating: "x", count: 5000) + "\"}\n?VERSION;"
        let results = read(long, pieces: 100)
        #expect(results == [.failure(.requestTooLong(limit: 4096)), .success(.version)])
        var reader = RequestReader()
        var count = 0
        let chunk = Array(repeating: UInt8(ascii: "?"), count: 65_536)
        for _ in 0..<16 { reader.feed(chunk) { _ in count += 1 } }
        #expect(count == 1)
    }

    @Test("an argument left open is ended by its line: its ERROR, then the requests after it")
    func unterminatedArgument() {
        let results = read("?WATCH={\n?POLL;\n?WATCH={\"enable\":true\n?VERSION;", pieces: 3)
        #expect(results.count == 4)
        if case .failure(.invalidArguments)? = results.first {} else { Issue.record("\(results)") }
        #expect(results.dropFirst().first == .success(.poll))
        if case .failure(.invalidArguments)? = results.dropFirst(2).first {} else { Issue.record("\(results)") }
        #expect(results.last == .success(.version))
    }

    @Test("next(in:) stops after one request and says how far it read; the rest reads the same later")
    func oneAtATime() {
        var reader = RequestReader()
        let bytes = Array("?VERSION;?POLL;?DEV".utf8)
        var results: [Result<ClientRequest, ProtocolError>] = []
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let (result, consumed) = reader.next(in: UnsafeRawBufferPointer(rebasing: raw[offset...]))
                offset += consumed
                if let result { results.append(result) }
            }
        }
        #expect(results == [.success(.version), .success(.poll)])
        let rest = Array("ICES;".utf8)
        let last = rest.withUnsafeBytes { reader.next(in: $0) }
        #expect(last.result == .success(.devices) && last.consumed == 5)
    }
}
