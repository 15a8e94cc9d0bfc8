/// Reads a caster's answer to an ``NTRIPRequest``, fed in chunks split anywhere: first its head
/// (what kind of answer it is), then its body's bytes, with HTTP/1.1's chunked transfer
/// undone.
///
/// The answers casters give:
/// - NTRIP 1: `ICY 200 OK` and the stream right after the line (some casters put headers and a
///   blank line first: those are skipped); `SOURCETABLE 200 OK`, headers, a blank line and the
///   table; `HTTP/1.0 401 Unauthorized` and the like for a refusal.
/// - NTRIP 2: an HTTP/1.1 status line and headers; `200` with `Content-Type:
///   gnss/sourcetable` is the table, any other `200` the stream (chunked when
///   `Transfer-Encoding: chunked`); anything else a refusal.
public struct NTRIPResponseDecoder: Sendable {
    /// What kind of answer it is.
    public enum Head: Sendable, Hashable {
        /// The mountpoint's stream follows.
        case stream
        /// The caster's sourcetable follows (a mountpoint it does not know, asked with
        /// NTRIP 1, is answered so too).
        case sourcetable
        /// Refused: the HTTP status (401: the credentials; 404: no such mountpoint) and its
        /// reason phrase.
        case refused(status: Int, reason: String)
    }

    /// What the answer holds, in order: its head once, then its body.
    public enum Event: Sendable, Hashable {
        case head(Head)
        case body([UInt8])
    }

    /// An answer that cannot be read.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The first line is no NTRIP or HTTP status line (it is given, printable).
        case notNTRIP(String)
        /// The head grew past ``maximumHeadLength`` with no blank line.
        case headTooLong
        /// A chunk of a chunked body was framed wrongly.
        case badChunk

        public var description: String {
            switch self {
            case .notNTRIP(let line): "not an NTRIP answer: \"\(line)\""
            case .headTooLong: "the answer's headers never ended"
            case .badChunk: "a chunk of the stream was framed wrongly"
            }
        }
    }

    /// The longest head accepted, in bytes.
    public static let maximumHeadLength = 16_384

    private enum State: Sendable {
        /// Reading the status line and headers.
        case head
        /// After `ICY 200 OK`: headers if the next line is one, else the stream.
        case afterICY
        /// Reading the body as it is.
        case identity
        /// Reading a chunk's size line.
        case chunkSize
        /// Reading a chunk's bytes: so many left.
        case chunkData(Int)
        /// The CR LF after a chunk's bytes.
        case chunkEnd
        /// The trailers after the last chunk, until a blank line.
        case trailers
        /// The body has ended (the last chunk came).
        case done
    }

    private var state = State.head
    private var buffer: [UInt8] = []
    private var chunked = false

    /// A decoder at the start of an answer.
    public init() {}

    /// Whether a chunked body has ended (its last, empty chunk came).
    public var isFinished: Bool { if case .done = state { true } else { false } }

    /// Takes the next bytes of the answer; `handler` is told the head once it is read, then
    /// the body's bytes as they come.
    public mutating func feed(_ bytes: some Collection<UInt8>, _ handler: (Event) -> Void) throws(Failure) {
        buffer.append(contentsOf: bytes)
        var offset = 0
        defer { buffer.removeFirst(offset) }
        while offset < buffer.count {
            switch state {
            case .head:
                guard let first = Self.line(buffer, from: offset) else {
                    if buffer.count - offset > Self.maximumHeadLength { throw .headTooLong }
                    return
                }
                guard ["ICY ", "SOURCETABLE ", "HTTP/"].contains(where: { first.text.hasPrefix($0) }) else {
                    throw .notNTRIP(Self.printable(first.text))
                }
                if first.text.hasPrefix("ICY ") {
                    // NTRIP 1's stream may follow the status line at once.
                    offset = first.next
                    try announce(status: first.text, headers: [], handler)
                    state = .afterICY
                    continue
                }
                guard let lines = Self.headLines(buffer, from: offset) else {
                    if buffer.count - offset > Self.maximumHeadLength { throw .headTooLong }
                    return
                }
                offset = lines.next
                try announce(status: first.text, headers: Array(lines.lines.dropFirst()), handler)
                state = chunked ? .chunkSize : .identity
            case .afterICY:
                // A printable line with a colon, or an empty one: headers up to a blank line.
                guard let line = Self.line(buffer, from: offset) else {
                    if buffer[offset...].contains(where: { $0 < 0x20 && $0 != 0x0D && $0 != 0x0A }) || buffer.count - offset > 1024 {
                        state = .identity
                    }
                    if case .identity = state { continue }
                    return
                }
                if line.text.isEmpty {
                    offset = line.next
                    state = .identity
                } else if line.text.contains(":"), line.text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                    offset = line.next
                } else {
                    state = .identity
                }
            case .identity:
                handler(.body(Array(buffer[offset...])))
                offset = buffer.count
            case .chunkSize:
                guard let line = Self.line(buffer, from: offset) else {
                    if buffer.count - offset > 1024 { throw .badChunk }
                    return
                }
                let digits = line.text.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces } ?? ""
                guard let size = Int(digits, radix: 16), size >= 0 else { throw .badChunk }
                offset = line.next
                state = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let left):
                let take = min(left, buffer.count - offset)
                handler(.body(Array(buffer[offset..<offset + take])))
                offset += take
                state = left == take ? .chunkEnd : .chunkData(left - take)
            case .chunkEnd:
                guard buffer.count - offset >= 2 else { return }
                guard buffer[offset] == 0x0D, buffer[offset + 1] == 0x0A else { throw .badChunk }
                offset += 2
                state = .chunkSize
            case .trailers:
                guard let line = Self.line(buffer, from: offset) else { return }
                offset = line.next
                if line.text.isEmpty { state = .done }
            case .done:
                offset = buffer.count
            }
        }
    }

    /// The caster closed the connection: a head still waiting for its blank line is told now
    /// (casters close right after a refusal's status line: RTKLIB's `HTTP/1.0 401
    /// Unauthorized`). Throws when what came is no answer at all.
    public mutating func finish(_ handler: (Event) -> Void) throws(Failure) {
        guard case .head = state, !buffer.isEmpty else { return }
        let text = Self.line(buffer, from: 0)?.text ?? String(decoding: buffer, as: UTF8.self)
        guard ["ICY ", "SOURCETABLE ", "HTTP/"].contains(where: { text.hasPrefix($0) }) else { throw .notNTRIP(Self.printable(text)) }
        var headers: [String] = []
        var position = Self.line(buffer, from: 0)?.next ?? buffer.count
        while let line = Self.line(buffer, from: position), !line.text.isEmpty {
            headers.append(line.text)
            position = line.next
        }
        let rest = Array(buffer[position...])
        buffer = []
        try announce(status: text, headers: headers, handler)
        state = .done
        if !rest.isEmpty { handler(.body(rest)) }
    }

    /// Reads the status line and headers, and tells the head.
    private mutating func announce(status: String, headers: [String], _ handler: (Event) -> Void) throws(Failure) {
        let fields = status.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        var values: [String: String] = [:]
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else { continue }
            values[header[..<colon].lowercased()] = String(header[header.index(after: colon)...]).trimmingSpaces
        }
        chunked = values["transfer-encoding"]?.lowercased().contains("chunked") == true
        let head: Head
        switch fields.first {
        case "ICY" where fields.count >= 2 && fields[1] == "200":
            head = .stream
        case "SOURCETABLE" where fields.count >= 2 && fields[1] == "200":
            head = .sourcetable
        case let version? where version.hasPrefix("HTTP/") && fields.count >= 2:
            guard let code = Int(fields[1]) else { throw .notNTRIP(Self.printable(status)) }
            let isTable = values["content-type"]?.lowercased().hasPrefix("gnss/sourcetable") == true
            head = code == 200 ? (isTable ? .sourcetable : .stream) : .refused(status: code, reason: fields.count > 2 ? String(fields[2]) : "")
        default:
            throw .notNTRIP(Self.printable(status))
        }
        handler(.head(head))
    }

    /// The line starting at `offset` (without its CR LF or LF) and where the next begins;
    /// `nil` until its end has come.
    private static func line(_ bytes: [UInt8], from offset: Int) -> (text: String, next: Int)? {
        guard let newline = bytes[offset...].firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > offset, bytes[end - 1] == 0x0D { end -= 1 }
        return (String(decoding: bytes[offset..<end], as: UTF8.self), newline + 1)
    }

    /// The head's lines up to the blank line, and where the body begins; `nil` until the blank
    /// line has come.
    private static func headLines(_ bytes: [UInt8], from offset: Int) -> (lines: [String], next: Int)? {
        var lines: [String] = []
        var position = offset
        while let line = line(bytes, from: position) {
            position = line.next
            if line.text.isEmpty { return (lines, position) }
            lines.append(line.text)
        }
        return nil
    }

    /// At most 80 printable characters of `text`, for a message.
    private static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(80) {
            shown.unicodeScalars.append(scalar.value >= 0x20 && scalar.value < 0x7F ? scalar : "?")
        }
        return shown
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
