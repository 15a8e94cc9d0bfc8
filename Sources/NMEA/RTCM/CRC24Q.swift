/// CRC-24Q, the checksum of an RTCM 3 frame (and of SBAS messages): the polynomial 0x1864CFB,
/// initial value 0, most significant bit first, no final XOR. A frame's last three bytes are
/// the checksum of everything before them, big-endian.
public enum CRC24Q {
    /// The checksum of `bytes`, in the low 24 bits.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc = ((crc << 8) & 0xFF_FFFF) ^ table[Int((crc >> 16) ^ UInt32(byte)) & 0xFF]
        }
        return crc
    }

    /// The checksum of each byte value, shifted through the polynomial.
    private static let table: [UInt32] = (0..<256).map { value in
        var crc = UInt32(value) << 16
        for _ in 0..<8 {
            crc <<= 1
            if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
        }
        return crc & 0xFF_FFFF
    }
}
