import NMEA

/// A payload written field by field, little-endian, at the offsets u-blox gives.
struct PayloadBuilder {
    var bytes: [UInt8]

    init(length: Int) { bytes = Array(repeating: 0, count: length) }

    mutating func u1(_ offset: Int, _ value: UInt8) { bytes[offset] = value }
    mutating func i1(_ offset: Int, _ value: Int8) { bytes[offset] = UInt8(bitPattern: value) }
    mutating func u2(_ offset: Int, _ value: UInt16) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }
    mutating func i2(_ offset: Int, _ value: Int16) { u2(offset, UInt16(bitPattern: value)) }
    mutating func u4(_ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * UInt32(index)) & 0xFF) }
    }
    mutating func i4(_ offset: Int, _ value: Int32) { u4(offset, UInt32(bitPattern: value)) }
}

/// The message of a frame, decoded, with the fields that could not be read.
func decodeUBX(_ bytes: [UInt8]) -> (message: UBXMessage, malformed: [MalformedField])? {
    var result: (message: UBXMessage, malformed: [MalformedField])?
    let framer = NMEAFramer()
    bytes.withUnsafeBytes { buffer in
        framer.feed(buffer) { event in
            if case .ubx(let frame) = event { result = UBXMessage.decode(frame) }
        }
    }
    return result
}
