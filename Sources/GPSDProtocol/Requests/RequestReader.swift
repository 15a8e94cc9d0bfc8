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
        for byte in bytes {
            if let result = take(byte) { handle(result) }
        }
    }

    /// Feeds bytes up to the end of the first request in them: that request (or its error)
    /// and how many bytes it took, or `nil` and all of them when none was completed. A caller
    /// that must answer one request before it reads the next (the server, while a client does
    /// not read its replies) feeds the rest later.
    public mutating func next(in bytes: UnsafeRawBufferPointer) -> (result: Result<ClientRequest, ProtocolError>?, consumed: Int) {
        for (index, byte) in bytes.enumerated() {
            if let result = take(byte) { return (result, index + 1) }
        }
        return (nil, bytes.count)
    }

    private mutating func take(_ byte: UInt8) -> Result<ClientRequest, ProtocolError>? {
        switch state {
        case .idle:
            switch byte {
            case UInt8(ascii: "?"):
                request = [byte]
                state = .name
            case UInt8(ascii: ";"), 0x20, 0x09, 0x0D, 0x0A: break
            default: state = .skippingLine
            }
            return nil
        case .skippingLine:
            if byte == 0x0A { state = .idle }
            return nil
        case .name:
            switch byte {
            case UInt8(ascii: ";"), 0x0D, 0x0A: return complete()
            case UInt8(ascii: "="):
                if let refused = append(byte) { return refused }
                state = .argument(depth: 0, inString: false, escaped: false)
                return nil
            default: return append(byte)
            }
        case .argument(var depth, var inString, var escaped):
            // A line ends a request, as gpsd reads one request a line: an argument left open
            // (`?WATCH={` and a line end) is answered with its ERROR, and does not swallow the
            // requests after it. JSON has no raw line end inside a string either.
            if byte == 0x0A { return complete() }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
            } else if depth == 0, byte == UInt8(ascii: ";") {
                // No object after `=`, or junk after it: the parser says what is wrong.
                return complete()
            }
            if let refused = append(byte) { return refused }
            if depth <= 0, byte == UInt8(ascii: "}") { return complete() }
            state = .argument(depth: depth, inString: inString, escaped: escaped)
            return nil
        }
    }

    /// Adds `byte` to the request; a refusal when that makes it too long (the rest of its
    /// line is then skipped).
    private mutating func append(_ byte: UInt8) -> Result<ClientRequest, ProtocolError>? {
        guard request.count < maximumLength else {
            request = []
            state = byte == 0x0A ? .idle : .skippingLine
            return .failure(.requestTooLong(limit: maximumLength))
        }
        request.append(byte)
        return nil
    }

    private mutating func complete() -> Result<ClientRequest, ProtocolError> {
        let text = request
        request = []
        state = .idle
        return Result { () throws(ProtocolError) in try ClientRequest(parsing: text) }
    }
}
