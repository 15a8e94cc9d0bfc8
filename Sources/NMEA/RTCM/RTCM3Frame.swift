/// One RTCM 3 frame, as a correction service sends it and a receiver takes it: the preamble
/// `0xD3`, six reserved bits (zero), a 10-bit payload length, the payload (its first 12 bits
/// are the message type), and a CRC-24Q over all of that. Kept whole, to be passed on
/// unchanged.
public struct RTCM3Frame: Sendable, Hashable {
    /// The frame's bytes, preamble to checksum.
    public let bytes: [UInt8]

    /// The preamble.
    public static let preamble: UInt8 = 0xD3
    /// Bytes before the payload: preamble and length.
    public static let headerLength = 3
    /// Bytes after the payload: the CRC-24Q.
    public static let checksumLength = 3
    /// The longest payload the 10-bit length allows.
    public static let maximumPayloadLength = 1023

    /// `bytes` as a frame when they are one: preamble, zero reserved bits, a length that
    /// accounts for every byte, and a matching checksum; otherwise `nil`.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerLength + Self.checksumLength, bytes[0] == Self.preamble, bytes[1] & 0xFC == 0,
              Self.payloadLength(bytes[1], bytes[2]) + Self.headerLength + Self.checksumLength == bytes.count,
              Self.checksumMatches(bytes[...])
        else { return nil }
        self.bytes = bytes
    }

    /// Trusted: checked by the framer.
    init(checked bytes: [UInt8]) { self.bytes = bytes }

    /// The payload's length in bytes (0 to 1023).
    public var payloadLength: Int { Self.payloadLength(bytes[1], bytes[2]) }

    /// The message type (1001 to 4095: 1005 a base station's position, 1077 GPS MSM7, 1230
    /// GLONASS biases, 4072 u-blox's own...); `nil` for an empty payload.
    public var messageType: Int? {
        guard payloadLength >= 2 else { return nil }
        return Int(bytes[3]) << 4 | Int(bytes[4]) >> 4
    }

    /// The length a frame's second and third bytes give its payload.
    static func payloadLength(_ high: UInt8, _ low: UInt8) -> Int { Int(high & 0x03) << 8 | Int(low) }

    /// Whether the last three of `frame` are the CRC-24Q of the rest.
    static func checksumMatches(_ frame: ArraySlice<UInt8>) -> Bool {
        let end = frame.endIndex - checksumLength
        let expected = UInt32(frame[end]) << 16 | UInt32(frame[end + 1]) << 8 | UInt32(frame[end + 2])
        return CRC24Q.checksum(frame[frame.startIndex..<end]) == expected
    }
}
