#if canImport(Glibc)
import Glibc
import Platform
#endif
import Dispatch
import Signals
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

    /// A message 1005 (a base station's position, 19 bytes) of reference station `station`
    /// (0 to 4095), at the Earth's centre: a frame any RTCM 3 decoder reads (gpsd's reports its
    /// station ID).
    public static func stationPosition(station: Int) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 19)
        payload[0] = UInt8(1005 >> 4)
        payload[1] = UInt8((1005 & 0xF) << 4) | UInt8((station >> 8) & 0xF)
        payload[2] = UInt8(station & 0xFF)
        return frame(payload)
    }

    /// Sends `frames` to a caster's input, five at a time every 40 ms (about 20 KB/s, still
    /// four times a busy caster's rate, so that a loaded machine's pauses of the reading
    /// thread do not fill the receiver's line), while reading what reaches the
    /// receiver's side of `terminal`, as a receiver reads its port (a burst does not wait in
    /// the terminal's small buffer): `nil` when exactly their bytes arrived, in order, and
    /// nothing more; else what differed.
    public static func relay(_ frames: [[UInt8]], through input: LineClient, to terminal: PseudoTerminal) -> String? {
        let expected = frames.flatMap { $0 }
        let received = Protected<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let terminal = terminal
        DispatchQueue.global().async {
            var bytes = terminal.read(upTo: expected.count, seconds: 15)
            // Nothing more (no frame twice).
            bytes += terminal.read(upTo: 1, seconds: 0.3)
            received.withLock { $0 = bytes }
            done.signal()
        }
        for (index, frame) in frames.enumerated() {
            input.send(bytes: frame)
            if index % 5 == 4 { usleep(40_000) }
        }
        done.wait()
        let got = received.withLock { $0 }
        guard got != expected else { return nil }
        let at = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
        return "\(got.count) bytes of \(expected.count), the first difference at byte \(at)"
    }
}
