import Testing
@testable import NTRIP

/// NTRIP without a socket: URLs, requests, casters' answers split anywhere, sourcetables.
@Suite("NTRIP")
struct NTRIPTests {
    @Test("URLs: user, password (percent-encoded), host, port 2101 by default, IPv6 in brackets, the mountpoint; what is wrong said, the password never shown")
    func urls() throws {
        let full = try NTRIPEndpoint(parsing: "ntrip://me%40example.org:s%3Acret@caster.example.org:2102/MOUNT1")
        #expect(full == NTRIPEndpoint(host: "caster.example.org", port: 2102, mountpoint: "MOUNT1", user: "me@example.org", password: "s:cret"))
        #expect(full.description == "ntrip://me@example.org@caster.example.org:2102/MOUNT1")
        #expect(try NTRIPEndpoint(parsing: "ntrip://rtk2go.com/AUTO") == NTRIPEndpoint(host: "rtk2go.com", mountpoint: "AUTO"))
        #expect(try NTRIPEndpoint(parsing: "ntrip://[::1]:2101/M").host == "::1")
        #expect(try NTRIPEndpoint(parsing: "ntrip://user@host/M") == NTRIPEndpoint(host: "host", mountpoint: "M", user: "user"))
        #expect(try NTRIPEndpoint(parsing: "ntrip://host/").mountpoint == "", "the sourcetable")
        let wrong: [(String, String)] = [
            ("http://host/M", "not an ntrip:// URL"), ("ntrip://host", "no mountpoint"), ("ntrip:///M", "no host"),
            ("ntrip://host:0/M", "from 1 to 65535"), ("ntrip://::1/M", "brackets"), ("ntrip://host/a/b", "one name"),
            ("ntrip://u:p%4@host/M", "two hexadecimal digits"),
            ("ntrip://host/M\r\nX-Injected: 1", "a control character (U+000D)"), ("ntrip://host/M\u{1B}", "a control character (U+001B)"),
        ]
        for (url, reason) in wrong {
            do {
                _ = try NTRIPEndpoint(parsing: url)
                Issue.record("\(url) was read")
            } catch {
                #expect(error.reason.contains(reason), "\(url): \(error.reason)")
            }
        }
        do {
            _ = try NTRIPEndpoint(parsing: "ntrip://user:secret@host")
        } catch {
            #expect(!error.description.contains("secret"), "\(error)")
            #expect(error.description.contains("user:***@host"), "\(error)")
        }
    }

    @Test("requests: NTRIP 1 and 2, Basic credentials in base64, an agent that starts with NTRIP")
    func requests() {
        let endpoint = NTRIPEndpoint(host: "caster", port: 2101, mountpoint: "RTCM3", user: "Aladdin", password: "open sesame")
        let one = String(decoding: NTRIPRequest.bytes(for: endpoint, version: .v1, agent: "nmeastream/1.0"), as: UTF8.self)
        #expect(one == "GET /RTCM3 HTTP/1.0\r\nUser-Agent: NTRIP nmeastream/1.0\r\nAccept: */*\r\n"
                + "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\nConnection: close\r\n\r\n")
        let two = String(decoding: NTRIPRequest.bytes(for: NTRIPEndpoint(host: "::1", mountpoint: "M"), version: .v2, agent: "x"), as: UTF8.self)
        #expect(two == "GET /M HTTP/1.1\r\nHost: [::1]:2101\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP x\r\nConnection: close\r\n\r\n")
        #expect(Base64.encode([]) == "" && Base64.encode(Array("f".utf8)) == "Zg==" && Base64.encode(Array("fo".utf8)) == "Zm8="
                && Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    }

    /// The events of `answer` fed split at `split`, the body's bytes joined.
    static func decode(_ answer: [UInt8], split: Int) throws(NTRIPResponseDecoder.Failure) -> (head: NTRIPResponseDecoder.Head?, body: [UInt8], finished: Bool) {
        var decoder = NTRIPResponseDecoder()
        var head: NTRIPResponseDecoder.Head?
        var body: [UInt8] = []
        let take: (NTRIPResponseDecoder.Event) -> Void = { event in
            switch event {
            case .head(let value):
                #expect(head == nil, "one head")
                head = value
            case .body(let bytes): body += bytes
            }
        }
        try decoder.feed(answer[..<split], take)
        try decoder.feed(answer[split...], take)
        return (head, body, decoder.isFinished)
    }

    static let rtcm: [UInt8] = [0xD3, 0x00, 0x04, 0x3F, 0x00, 0x12, 0x34, 0x91, 0xAF, 0xC9, 0x0A, 0x0D, 0x0A]

    @Test("answers, split at every byte: ICY 200 OK with the stream at once or after headers, HTTP/1.1 chunked and not, the sourcetable both ways, 401 and 404")
    func answers() throws {
        let cases: [(String, [UInt8], NTRIPResponseDecoder.Head, [UInt8])] = [
            ("ICY, the stream at once", Array("ICY 200 OK\r\n".utf8) + Self.rtcm, .stream, Self.rtcm),
            ("ICY, headers first", Array("ICY 200 OK\r\nServer: NTRIP Caster\r\nDate: now\r\n\r\n".utf8) + Self.rtcm, .stream, Self.rtcm),
            ("ICY, a blank line", Array("ICY 200 OK\r\n\r\n".utf8) + Self.rtcm, .stream, Self.rtcm),
            ("HTTP/1.1 chunked", Array("HTTP/1.1 200 OK\r\nNtrip-Version: Ntrip/2.0\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n".utf8)
                + Self.rtcm.prefix(6) + Array("\r\n7;ext=1\r\n".utf8) + Self.rtcm.dropFirst(6) + Array("\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8),
             .stream, Self.rtcm),
            ("HTTP/1.1 identity", Array("HTTP/1.1 200 OK\r\nContent-Type: gnss/data\r\n\r\n".utf8) + Self.rtcm, .stream, Self.rtcm),
            ("SOURCETABLE", Array("SOURCETABLE 200 OK\r\nServer: x\r\nContent-Type: text/plain\r\n\r\nSTR;M;;\r\nENDSOURCETABLE\r\n".utf8),
             .sourcetable, Array("STR;M;;\r\nENDSOURCETABLE\r\n".utf8)),
            ("gnss/sourcetable", Array("HTTP/1.1 200 OK\r\nContent-Type: gnss/sourcetable\r\n\r\nSTR;M;;\r\n".utf8),
             .sourcetable, Array("STR;M;;\r\n".utf8)),
            ("401", Array("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"x\"\r\n\r\n".utf8),
             .refused(status: 401, reason: "Unauthorized"), []),
            ("404", Array("HTTP/1.0 404 Not Found\r\n\r\n".utf8), .refused(status: 404, reason: "Not Found"), []),
        ]
        for (name, answer, head, body) in cases {
            for split in 0...answer.count {
                let decoded = try Self.decode(answer, split: split)
                #expect(decoded.head == head, "\(name), split at \(split)")
                #expect(decoded.body == body, "\(name), split at \(split)")
            }
        }
        #expect(try Self.decode(cases[3].1, split: 0).finished, "the last chunk ends the body")
    }

    @Test("a caster that closes right after its status line (RTKLIB's 401): the refusal told at the end; nothing at all: nothing told")
    func closedAfterStatus() throws {
        for split in 0...27 {
            var decoder = NTRIPResponseDecoder()
            var heads: [NTRIPResponseDecoder.Head] = []
            let answer = Array("HTTP/1.0 401 Unauthorized\r\n".utf8)
            let take: (NTRIPResponseDecoder.Event) -> Void = { if case .head(let head) = $0 { heads.append(head) } }
            try decoder.feed(answer[..<min(split, answer.count)], take)
            try decoder.feed(answer[min(split, answer.count)...], take)
            try decoder.finish(take)
            #expect(heads == [.refused(status: 401, reason: "Unauthorized")], "split at \(split)")
        }
        var empty = NTRIPResponseDecoder()
        var told = false
        try empty.finish { _ in told = true }
        #expect(!told)
        var garbage = NTRIPResponseDecoder()
        #expect(throws: NTRIPResponseDecoder.Failure.self) {
            try garbage.feed(Array("<htm".utf8)) { _ in }
            try garbage.finish { _ in }
        }
    }

    @Test("what is no NTRIP answer: said; a head that never ends, and a bad chunk, refused")
    func failures() {
        #expect(throws: NTRIPResponseDecoder.Failure.notNTRIP("<html>")) { try Self.decode(Array("<html>\r\n".utf8), split: 3) }
        #expect(throws: NTRIPResponseDecoder.Failure.notNTRIP("HTTP/1.1 abc OK")) { try Self.decode(Array("HTTP/1.1 abc OK\r\n\r\n".utf8), split: 0) }
        #expect(throws: NTRIPResponseDecoder.Failure.headTooLong) {
            try Self.decode(Array("HTTP/1.1 200 OK\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 20_000), split: 10)
        }
        #expect(throws: NTRIPResponseDecoder.Failure.badChunk) {
            try Self.decode(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8), split: 0)
        }
        #expect(throws: NTRIPResponseDecoder.Failure.badChunk) {
            try Self.decode(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY".utf8), split: 0)
        }
    }

    @Test("a sourcetable: its STR records, fields in NTRIP's order; CAS, NET and junk skipped; missing fields nil")
    func sourcetable() {
        let text = """
            CAS;rtk2go.com;2101;RTK2GO;SNIP;0;USA;37.00;-122.00;0.0.0.0;0;http://rtk2go.com
            NET;SNIP;RTK2go;B;N;https://rtk2go.com;none;x;none
            STR;Delft01;Delft;RTCM 3.2;1005(10),1077(1),1087(1);2;GPS+GLO+GAL;SNIP;NLD;52.00;4.37;0;0;u-blox ZED-F9P;none;B;N;3600;
            STR;VRS3;Network;RTCM 3.1;1004(1);2;GPS;NET;DEU;50.1;8.6;1;1;Trimble;none;B;Y;
            STR;Short
            junk line
            ENDSOURCETABLE
            STR;After;;;
            """
        let table = Sourcetable(text: text)
        #expect(table.streams.map(\.mountpoint) == ["Delft01", "VRS3", "Short"])
        let delft = table.streams[0]
        #expect(delft.identifier == "Delft" && delft.format == "RTCM 3.2" && delft.formatDetails == "1005(10),1077(1),1087(1)")
        #expect(delft.carrier == 2 && delft.navigationSystems == "GPS+GLO+GAL" && delft.country == "NLD")
        #expect(delft.latitude == 52.00 && delft.longitude == 4.37 && !delft.needsPosition && !delft.isNetwork)
        #expect(delft.generator == "u-blox ZED-F9P" && delft.authentication == "B" && !delft.fee && delft.bitrate == 3600)
        #expect(table.streams[1].needsPosition && table.streams[1].isNetwork && table.streams[1].fee && table.streams[1].bitrate == nil)
        #expect(table.streams[2].latitude == nil && table.streams[2].carrier == nil)
    }
}
