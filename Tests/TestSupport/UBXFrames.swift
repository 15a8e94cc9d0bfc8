/// A u-blox UBX frame of `payload`: sync bytes, class, id, length, payload and Fletcher
/// checksum, for tests that feed UBX.
public func ubx(_ messageClass: UInt8, _ messageID: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let body = [messageClass, messageID, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in body {
        a &+= byte
        b &+= a
    }
    return [0xB5, 0x62] + body + [a, b]
}

/// A payload written field by field, little-endian, at the offsets u-blox gives.
public struct PayloadBuilder {
    /// The payload so far.
    public var bytes: [UInt8]

    /// A payload of `length` zero bytes.
    public init(length: Int) { bytes = Array(repeating: 0, count: length) }

    /// Writes a little-endian value at `offset`.
    public mutating func u1(_ offset: Int, _ value: UInt8) { bytes[offset] = value }
    /// Writes a little-endian value at `offset`.
    public mutating func i1(_ offset: Int, _ value: Int8) { bytes[offset] = UInt8(bitPattern: value) }
    /// Writes a little-endian value at `offset`.
    public mutating func u2(_ offset: Int, _ value: UInt16) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }
    /// Writes a little-endian value at `offset`.
    public mutating func i2(_ offset: Int, _ value: Int16) { u2(offset, UInt16(bitPattern: value)) }
    /// Writes a little-endian value at `offset`.
    public mutating func u4(_ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * UInt32(index)) & 0xFF) }
    }
    /// Writes a little-endian value at `offset`.
    public mutating func i4(_ offset: Int, _ value: Int32) { u4(offset, UInt32(bitPattern: value)) }
}

/// Frames of u-blox's binary protocol for tests.
public enum UBXTestFrames {
    /// 2026-11-26 11:30:18 UTC is GPS week 2446, 387,036 s into it (18 leap seconds).
    public static let baseTimeOfWeek: UInt32 = 387_036_000

    /// A NAV-PVT `seconds` after 11:30:18 UTC: by default a 3D fix, autonomous, date and time
    /// valid, at 51.5° N 0.1234567° W, 70.123 m above the ellipsoid and 24.456 m above sea
    /// level, moving at `groundSpeed` mm/s due north.
    public static func navPVT(after seconds: Int = 0, nano: Int32 = 0, latitude: Int32 = 515_000_000, fixType: UInt8 = 3,
                              flags: UInt8 = 0x01, valid: UInt8 = 0x07, flags2: UInt8 = 0,
                              groundSpeed: Int32 = 1_000) -> [UInt8] {
        var p = PayloadBuilder(length: 92)
        p.u4(0, baseTimeOfWeek + UInt32(seconds * 1000))
        p.u2(4, 2026); p.u1(6, 11); p.u1(7, 26); p.u1(8, 11); p.u1(9, 30); p.u1(10, UInt8(18 + seconds))
        p.u1(11, valid)
        p.u4(12, 30)
        p.i4(16, nano)
        p.u1(20, fixType)
        p.u1(21, flags)
        p.u1(22, flags2)
        p.u1(23, 12)
        p.i4(24, -1_234_567)                    // 0.1234567° W
        p.i4(28, latitude)                      // 51.5° N
        p.i4(32, 70_123); p.i4(36, 24_456)      // 70.123 m above the ellipsoid, 24.456 m above sea level
        p.u4(40, 1_500); p.u4(44, 2_500)        // 1.5 m, 2.5 m
        p.i4(48, groundSpeed); p.i4(52, 0); p.i4(56, -200)
        p.i4(60, groundSpeed); p.i4(64, 0)      // due north
        p.u4(68, 120); p.u4(72, 200_000)
        p.u2(76, 180)
        return ubx(0x01, 0x07, p.bytes)
    }

    /// An HNR-PVT `milliseconds` after 11:30:18 UTC: by default a 3D fix with sensors (fix
    /// type 4), date and time valid, at 51.5° N and `longitude` (in 1e-7 degrees), 70.5 m above
    /// the ellipsoid and 24.5 m above sea level, moving at 2.5 m/s on a course of 90°.
    public static func hnrPVT(afterMilliseconds milliseconds: Int, longitude: Int32 = -1_234_567, fixType: UInt8 = 4,
                              flags: UInt8 = 0x01 | 0x04 | 0x08, valid: UInt8 = 0x07) -> [UInt8] {
        var p = PayloadBuilder(length: 72)
        p.u4(0, baseTimeOfWeek + UInt32(milliseconds))
        p.u2(4, 2026); p.u1(6, 11); p.u1(7, 26); p.u1(8, 11); p.u1(9, 30); p.u1(10, UInt8(18 + milliseconds / 1000))
        p.u1(11, valid)
        p.i4(12, Int32(milliseconds % 1000) * 1_000_000)
        p.u1(16, fixType)
        p.u1(17, flags)
        p.i4(20, longitude)
        p.i4(24, 515_000_000)
        p.i4(28, 70_500); p.i4(32, 24_500)
        p.i4(36, 2_500); p.i4(40, 2_510)
        p.i4(44, 9_000_000); p.i4(48, 8_950_000)
        p.u4(52, 1_200); p.u4(56, 2_100); p.u4(60, 150); p.u4(64, 1_500_000)
        return ubx(0x28, 0x00, p.bytes)
    }
}
