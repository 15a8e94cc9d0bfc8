/// Cuts what a client sends into requests, however it arrives: a request may span reads, a
/// read may carry several, the `;` after a request is optional (a line end does as well).
/// As gpsd does, a line that does not start with `?` is ignored. A request longer than
/// ``maximumLength`` is refused and skipped to its line end, so nothing a client sends makes
/// the server hold more than that.
public struct RequestReader: Sendable {
    /// The longest request accepted, in bytes from `?` on.
    public let maximumLength: Int

    private enum State: Sendable {
        /// Between requests.
        case idle
        /// In a line that is not a request, or in a request refused as too long: until its end.
        case skippingLine
        /// In a request's name (and `=`).
        case name
        /// In a request's JSON argument: how deep in braces, in a string, after a backslash.
        case argument(depth: Int, inString: Bool, escaped: Bool)
    }

    private var state = State.idle
    private var request: [UInt8] = []

    /// Creates a reader that refuses requests longer than `maximumLength` bytes.
    public init(maximumLength: Int = 4096) {
        self.maximumLength = max(16, maximumLength)
    }

    /// Feeds bytes as they came; `handle` gets each request completed, or its error.
    public mutating func feed(_ bytes: some Sequence<UInt8>, _ handle: (Result<ClientRequest, ProtocolError>) -> Void) {
        for byte in bytes { take(byte, handle) }
    }

    private mutating func take(_ byte: UInt8, _ handle: (Result<ClientRequest, ProtocolError>) -> Void) {
        switch state {
        case .idle:
            switch byte {
            case UInt8(ascii: "?"):
                request = [byte]
                state = .name
            case UInt8(ascii: ";"), 0x20, 0x09, 0x0D, 0x0A: break
            default: state = .skippingLine
            }
        case .skippingLine:
            if byte == 0x0A { state = .idle }
        case .name:
            switch byte {
            case UInt8(ascii: ";"), 0x0D, 0x0A: complete(handle)
            case UInt8(ascii: "="):
                append(byte, handle)
                if case .name = state { state = .argument(depth: 0, inString: false, escaped: false) }
            default: append(byte, handle)
            }
        case .argument(var depth, var inString, var escaped):
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
            } else if depth == 0, byte == UInt8(ascii: ";") || byte == 0x0A {
                // No object after `=`, or junk after it: the parser says what is wrong.
                return complete(handle)
            }
            append(byte, handle)
            guard case .argument = state else { return }
            if depth <= 0, byte == UInt8(ascii: "}") {
                complete(handle)
            } else {
                state = .argument(depth: depth, inString: inString, escaped: escaped)
            }
        }
    }

    private mutating func append(_ byte: UInt8, _ handle: (Result<ClientRequest, ProtocolError>) -> Void) {
        guard request.count < maximumLength else {
            handle(.failure(.requestTooLong(limit: maximumLength)))
            request = []
            state = byte == 0x0A ? .idle : .skippingLine
            return
        }
        request.append(byte)
    }

    private mutating func complete(_ handle: (Result<ClientRequest, ProtocolError>) -> Void) {
        let text = request
        request = []
        state = .idle
        handle(Result { () throws(ProtocolError) in try ClientRequest(parsing: text) })
    }
}
