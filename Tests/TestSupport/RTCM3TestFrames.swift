import NMEA

/// RTCM 3 frames for tests that pass corrections along.
public enum RTCM3TestFrames {
    /// A frame of `payload` with its header and CRC-24Q.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        let head: [UInt8] = [0xD3, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        let crc = CRC24Q.checksum(head)
        return head + [UInt8(crc >> 16), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    /// Frame `index` of a made-up stream: message type 1001 plus `index` modulo 230, a payload
    /// of 2 to 300 bytes that tells it from every other.
    public static func numbered(_ index: Int) -> [UInt8] {
        let type = 1001 + index % 230
        let length = 2 + (index * 37) % 299
        var payload = [UInt8(type >> 4), UInt8((type & 0x0F) << 4)]
        for offset in 2..<length { payload.append(UInt8(truncatingIfNeeded: index &* 31 &+ offset)) }
        return frame(payload)
    }
}
