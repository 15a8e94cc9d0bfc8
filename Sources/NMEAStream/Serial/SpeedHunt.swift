import Dispatch
import NMEA

/// Finds the speed at which a receiver sends NMEA or UBX, by listening only.
///
/// It tries each candidate speed in turn for at most ``window``: the port is set to the speed
/// (which drops unread input) and what arrives goes through a framer of its own. A speed is
/// right when ``sentencesNeeded`` checksum-valid sentences or UBX frames arrive (a receiver
/// left in UBX-only mode sends no sentence); at a wrong speed a UART makes noise, which never
/// passes a checksum twice. Nothing is written to the device.
///
/// The bytes read at the right speed are kept (up to ``keptBytes``) and handed on once the
/// speed is known, so the sentences that proved it are not lost.
struct SpeedHunt {
    /// How long each speed is given; gpsd gives 3 s.
    static let window: Duration = .milliseconds(1_200)
    /// Checksum-valid sentences or UBX frames that prove a speed.
    static let sentencesNeeded = 2
    /// The most bytes kept while a speed is on trial.
    static let keptBytes = 65_536

    /// The speeds in the order tried: the port's current speed, the receiver's usual speed
    /// when known, then ``SerialSpeed/huntOrder``; each once.
    let candidates: [Int]
    private(set) var index = 0
    private var framer = NMEAFramer()
    private var valid = 0
    private(set) var kept: [UInt8] = []

    init(current: Int?, preferred: Int?) {
        var order: [Int] = []
        for speed in [current, preferred].compactMap({ $0 }) + SerialSpeed.huntOrder where !order.contains(speed) {
            order.append(speed)
        }
        candidates = order
    }

    /// The speed on trial, or `nil` when every one was tried.
    var speed: Int? { index < candidates.count ? candidates[index] : nil }

    /// Moves on to the next speed, forgetting what the last one read.
    mutating func next() {
        index += 1
        framer = NMEAFramer()
        valid = 0
        kept.removeAll(keepingCapacity: true)
    }

    /// Takes bytes read at the speed on trial; `true` once they prove it.
    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if kept.count < Self.keptBytes { kept.append(contentsOf: bytes.prefix(Self.keptBytes - kept.count)) }
        var valid = self.valid
        framer.feed(bytes) { event in
            switch event {
            case .sentence, .ubx: valid += 1
            case .rejected: break
            }
        }
        self.valid = valid
        return valid >= Self.sentencesNeeded
    }
}
