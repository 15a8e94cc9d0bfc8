import Dispatch
import NMEAStream
import Synchronization

/// Where a receiver's pulses per second come from: a kernel PPS device (``PPSDevice``), or
/// a stand-in in tests.
public protocol PulseSource: Sendable {
    /// Waits up to `timeout` seconds for the next pulse: the system time of its assert edge;
    /// `nil` when none came in that time. Throws when the source cannot be read any more.
    func nextPulseTime(timeout: Double) throws -> UTCTime?
}

extension PPSDevice: PulseSource {
    public func nextPulseTime(timeout: Double) throws -> UTCTime? {
        try nextPulse(timeout: timeout)?.time
    }
}

/// Reads a pulse source until stopped, on a queue of its own (each wait blocks in the kernel
/// up to a second; a serial queue of its own runs on an overcommitting thread, so the wait
/// holds up no other work), and tells each pulse.
package final class PulseReader: Sendable {
    private let running = Atomic<Bool>(true)

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

    /// Stops reading (within a second: the wait under way ends first).
    package func stop() {
        running.store(false, ordering: .relaxed)
    }
}
