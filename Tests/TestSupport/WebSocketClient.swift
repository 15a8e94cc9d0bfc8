import Foundation

/// A WebSocket client as plain as can be (RFC 6455, text frames, no extensions), on a
/// ``LineClient``: the live page's feed as the tests read it, without a browser.
public final class WebSocketClient {
    private let connection: LineClient
    /// The HTTP status line the server answered the upgrade with.
    public let statusLine: String
    private var pending: [String] = []

    /// Connects to `port` on 127.0.0.1 and asks for `path` as a WebSocket; `headers` are
    /// added to the request (`Origin`, a `Host` of another name). ``isOpen`` says whether the
    /// server agreed.
    public init(port: Int, path: String = "/feed", headers: [(String, String)] = []) throws {
        connection = try LineClient(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        connection.send(request + "\r\n")
        statusLine = connection.readLine() ?? ""
        while let header = connection.readLine(), !header.isEmpty {}
    }

    /// Whether the server switched to the WebSocket protocol.
    public var isOpen: Bool { statusLine.hasPrefix("HTTP/1.1 101") }

    /// The next frame: its opcode (1 text, 8 close, 9 ping, 10 pong) and payload, or `nil`
    /// when none comes within `seconds`.
    public func readFrame(seconds: Double = 10) -> (opcode: UInt8, payload: [UInt8])? {
        let head = connection.readBytes(2, seconds: seconds)
        guard head.count == 2 else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let extended = connection.readBytes(2, seconds: seconds)
            guard extended.count == 2 else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            let extended = connection.readBytes(8, seconds: seconds)
            guard extended.count == 8 else { return nil }
            length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = connection.readBytes(length, seconds: seconds)
        guard payload.count == length else { return nil }
        return (head[0] & 0x0F, payload)
    }

    /// The next line of the feed (a text frame carries one or more, each ending in CR LF),
    /// or `nil` when none comes within `seconds` or the server closed the feed.
    public func readLine(seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while pending.isEmpty {
            guard let frame = readFrame(seconds: max(0.01, deadline.timeIntervalSinceNow)), frame.opcode == 1 else { return nil }
            pending = String(decoding: frame.payload, as: UTF8.self)
                .split(whereSeparator: \.isNewline).map(String.init)
        }
        return pending.removeFirst()
    }

    /// Reads lines until one contains `text`; that line, or `nil` after `seconds`.
    public func readLine(containing text: String, seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while let line = readLine(seconds: max(0.01, deadline.timeIntervalSinceNow)) {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Sends one frame with `opcode` and `payload`, masked as a client must.
    public func send(opcode: UInt8, _ payload: [UInt8]) {
        precondition(payload.count < 126)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let masked = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        connection.send(bytes: [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask + masked)
    }

    /// Sends frames of `opcode` and `payload`, masked, again and again for `seconds` without
    /// reading: a page that floods (pings, say). How many bytes the kernel took.
    public func flood(opcode: UInt8, _ payload: [UInt8], seconds: Double) -> Int {
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let masked = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        let frame = [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask + masked
        return connection.flood(Array([[UInt8]](repeating: frame, count: max(1, 4096 / frame.count)).joined()), seconds: seconds)
    }

    /// Sends a close frame with `payload` (a code and a reason, or anything) as it is.
    public func sendClose(_ payload: [UInt8]) { send(opcode: 8, payload) }
}
