import Foundation

/// NMEA for tests that count epochs: one GGA and one RMC a second, each second a different
/// time of day, so that a missed or repeated epoch shows.
public enum SyntheticEpochs {
    /// The sentences of epoch `index` (CR LF after each): 2024-06-05, 12:00:00 plus `index`
    /// seconds, a 3D fix near 52° N, 4° E.
    public static func epoch(_ index: Int) -> [UInt8] {
        let seconds = 12 * 3600 + index
        let time = String(format: "%02d%02d%02d.00", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
        let gga = "GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,"
        let rmc = "GPRMC,\(time),A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A"
        return Array((sentence(gga) + sentence(rmc)).utf8)
    }

    /// `body` framed: `$`, the body, `*`, its checksum, CR LF.
    public static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
    }

    /// The `time` a TPV of epoch `index` carries.
    public static func time(_ index: Int) -> String {
        let seconds = 12 * 3600 + index
        return String(format: "2024-06-05T%02d:%02d:%02d.000Z", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
    }
}

extension PseudoTerminal {
    /// Writes ``SyntheticEpochs/epoch(_:)`` for each of `indices`, `interval` microseconds
    /// apart, on a thread of its own, as a receiver sends them while a test does something
    /// else; the semaphore is signalled once all are written. Wait for it before the terminal
    /// goes: the master's descriptor number may be another test's after.
    public func writeEpochs(_ indices: some Sequence<Int> & Sendable, every interval: useconds_t) -> DispatchSemaphore {
        let master = self.master
        let written = DispatchSemaphore(value: 0)
        Thread {
            for index in indices {
                let bytes = SyntheticEpochs.epoch(index)
                _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                usleep(interval)
            }
            written.signal()
        }.start()
        return written
    }
}
