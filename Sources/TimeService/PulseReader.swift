import Platform
import Dispatch
import NMEAStream
import Synchronization

/// Where a receiver's pulses per second come from: a kernel PPS device (``PPSDevice``), or
/// a stand-in in tests.
public protocol PulseSource: Sendable {
    /// Waits up to `timeout` seconds for the next pulse: the system time of its assert edge;
    /// `nil` when none came in that time. Throws when the source cannot be read any more.
    func nextPulseTime(timeout: Double) throws -> UTCTime?
    /// Ends a wait under way at once, for a source whose waits have no time-out (by default,
    /// nothing: the wait ends within its time-out).
    func interrupt()
}

extension PulseSource {
    public func interrupt() {}
}

extension PPSDevice: PulseSource {
    public func nextPulseTime(timeout: Double) throws -> UTCTime? {
        try nextPulse(timeout: timeout)?.time
    }
}

extension CarrierDetectPulses: PulseSource {
    /// The next assert edge of DCD, however long it takes (``interrupt()`` ends the wait).
    public func nextPulseTime(timeout: Double) throws -> UTCTime? {
        try nextAssert()
    }

    public func interrupt() { stop() }
}

/// Where a receiver's pulse per second is read.
public enum PulseInput: Sendable, Hashable, CustomStringConvertible {
    /// A kernel PPS device (`/dev/pps0`), such as a GPIO pin's or `ldattach PPS`'s.
    case ppsDevice(String)
    /// The DCD pin of the receiver's own serial line (``CarrierDetectPulses``).
    case carrierDetect

    /// Opens it, for the receiver at `devicePath`.
    public func open(devicePath: String) throws -> any PulseSource {
        switch self {
        case .ppsDevice(let path): try PPSDevice(path: path)
        case .carrierDetect: try CarrierDetectPulses(path: devicePath)
        }
    }

    /// `/dev/pps0`, or `DCD`.
    public var description: String {
        switch self {
        case .ppsDevice(let path): path
        case .carrierDetect: "DCD"
        }
    }
}

/// Reads a pulse source until stopped, on a queue of its own (each wait blocks in the kernel
/// up to a second; a serial queue of its own runs on an overcommitting thread, so the wait
/// holds up no other work), and tells each pulse.
package final class PulseReader: Sendable {
    private let running = Atomic<Bool>(true)
    /// The source once open, for ``stop()`` to interrupt.
    private let source = Protected<(any PulseSource)?>(nil)

    /// Opens the source with `open` and reads it: `pulse` is told each pulse's edge;
    /// `unavailable`, once, why the source could not be opened or read any more.
    package init(open: @escaping @Sendable () throws -> any PulseSource, pulse: @escaping @Sendable (UTCTime) -> Void,
                 unavailable: @escaping @Sendable (any Error) -> Void) {
        // The reader lives until its loop ends, within a second of stop().
        DispatchQueue(label: "nmeastream.pps").async { [self] in
            let source: any PulseSource
            do {
                source = try open()
            } catch {
                return unavailable(error)
            }
            self.source.withLock { $0 = source }
            // Stopped while it opened: the stop found no source to interrupt.
            if !running.load(ordering: .relaxed) { return }
            while running.load(ordering: .relaxed) {
                do {
                    guard let time = try source.nextPulseTime(timeout: 1) else { continue }
                    if running.load(ordering: .relaxed) { pulse(time) }
                } catch {
                    return unavailable(error)
                }
            }
        }
    }

    /// Stops reading: the wait under way ends (at once for a source that can be interrupted,
    /// else within its second).
    package func stop() {
        running.store(false, ordering: .relaxed)
        source.withLock { $0 }?.interrupt()
    }
}
