/// A framed, checksum-valid u-blox UBX frame, borrowed from the framer's buffer.
///
/// UBX is u-blox's binary protocol: `0xB5 0x62`, a class and an id byte, the payload's length
/// (two bytes, little-endian), the payload, and an 8-bit Fletcher checksum of everything from
/// the class through the payload. Like a ``RawSentence``, a frame points into memory the
/// framer reuses: read it inside the callback that received it, or copy it with ``bytes``, or
/// decode it with ``UBXMessage/decode(_:)`` into a plain value.
public struct UBXFrame {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// The whole frame's length in bytes, from the first sync byte through the checksum.
    public let length: Int

    @inlinable
    init(base: UnsafePointer<UInt8>, length: Int) {
        self.base = base
        self.length = length
    }

    /// The message class, such as `0x01` (NAV).
    @inlinable
    public var messageClass: UInt8 { base[2] }
    /// The message id within its class, such as `0x07` (NAV-PVT in class NAV).
    @inlinable
    public var messageID: UInt8 { base[3] }
    /// The class and id together, such as NAV-PVT.
    @inlinable
    public var kind: UBXMessageKind { UBXMessageKind(messageClass: messageClass, messageID: messageID) }
    /// The payload: what lies between the length and the checksum.
    @inlinable
    public var payload: UBXPayload { UBXPayload(base: base + 6, count: length - 8) }
    /// A copy of the frame's bytes, sync bytes and checksum included.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: length)) }

    /// The 8-bit Fletcher checksum UBX uses, over `count` bytes (a frame's class through its
    /// payload): the two bytes that end a frame, in order.
    @inlinable
    public static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int) -> (UInt8, UInt8) {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for index in 0..<count {
            a &+= bytes[index]
            b &+= a
        }
        return (a, b)
    }
}

/// A UBX message's class and id, such as NAV-PVT (`0x01 0x07`).
public struct UBXMessageKind: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The class byte.
    public var messageClass: UInt8
    /// The id byte, within the class.
    public var messageID: UInt8

    /// Creates a kind from its two bytes.
    public init(messageClass: UInt8, messageID: UInt8) {
        self.messageClass = messageClass
        self.messageID = messageID
    }

    /// Ordered by class, then id.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.messageClass, lhs.messageID) < (rhs.messageClass, rhs.messageID)
    }

    /// u-blox's name, such as `NAV-PVT`, for the messages nmeastream decodes and the classes
    /// it knows; otherwise the two bytes, such as `UBX-0x02-0x15`.
    public var description: String {
        if let name = UBXMessageKind.names[self] { return name }
        let hex = { (byte: UInt8) in "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        if let className = UBXMessageKind.classNames[messageClass] { return "\(className)-\(hex(messageID))" }
        return "UBX-\(hex(messageClass))-\(hex(messageID))"
    }

    static let classNames: [UInt8: String] = [
        0x01: "NAV", 0x02: "RXM", 0x04: "INF", 0x05: "ACK", 0x06: "CFG", 0x09: "UPD", 0x0A: "MON",
        0x0B: "AID", 0x0D: "TIM", 0x10: "ESF", 0x13: "MGA", 0x21: "LOG", 0x27: "SEC", 0x28: "HNR",
    ]
}
