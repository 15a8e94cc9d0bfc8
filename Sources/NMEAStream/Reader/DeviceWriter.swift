import Dispatch
import Platform

/// What became of bytes given to a receiver (RTCM corrections, the one thing nmeastream
/// writes to a device).
public enum DeviceWriteOutcome: Sendable, Hashable {
    /// Handed to the device (or queued behind earlier bytes, in order, whole).
    case written
    /// Dropped whole, for the reason said.
    case dropped(DeviceWriteRefusal)
}

/// Why bytes meant for a receiver were dropped.
public enum DeviceWriteRefusal: Sendable, Hashable, CustomStringConvertible {
    /// No device is open for reading (not yet, between two devices, or still finding its
    /// speed: bytes at a wrong speed would be noise to the receiver).
    case notOpen
    /// The source is no device that takes bytes (a log, a UDP feed, an upstream gpsd).
    case notADevice
    /// The device could be opened for reading only.
    case readOnly(path: String)
    /// More than ``DeviceWriter/backlogLimit`` bytes wait for the device already: it takes
    /// them more slowly than they come (a serial line too slow for the corrections).
    case backlogFull
    /// Writing failed with this error; nothing more is written to this device.
    case failed(Errno)

    public var description: String {
        switch self {
        case .notOpen: "no receiver is open to take them"
        case .notADevice: "the source is not a receiver that can be written to"
        case .readOnly(let path): "\(path) is open for reading only"
        case .backlogFull: "the receiver's line takes them more slowly than they come"
        case .failed(let errno): "writing to the receiver failed: \(errno)"
        }
    }
}

/// Writes byte strings whole and in order to a non-blocking descriptor that is read elsewhere
/// (a serial device's read loop owns it and closes it), on the reader's executor.
///
/// What the descriptor cannot take at once waits, up to ``backlogLimit`` bytes; a string that
/// would go past that is dropped whole, never cut, so the receiver never sees half a frame
/// followed by another. The rest is tried again on a short timer rather than on a Dispatch
/// write source: a second source on a descriptor that the read loop closes in its own cancel
/// handler could outlive it.
final class DeviceWriter: @unchecked Sendable {
    /// The most bytes that wait for the device: a few seconds of RTCM at the rates casters
    /// send (1 to 5 KB/s), past which the line is too slow for them.
    static let backlogLimit = 16 * 1024
    /// How long until a descriptor that took nothing is tried again.
    static let retryInterval = Duration.milliseconds(20)

    private let descriptor: Int32
    private let executor: any ReceiverExecutor
    private var backlog: [UInt8] = []
    private var retry: Disposable?
    private var failure: Errno?
    private var isClosed = false

    /// A writer of `descriptor` (a serial device), which must stay open until ``close()``;
    /// everything runs on `executor`.
    init(descriptor: Int32, executor: any ReceiverExecutor) {
        self.descriptor = descriptor
        self.executor = executor
    }

    /// Writes `bytes` whole after what waits, or drops them whole.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        if let failure { return .dropped(.failed(failure)) }
        guard !isClosed else { return .dropped(.notOpen) }
        guard backlog.count + bytes.count <= Self.backlogLimit else { return .dropped(.backlogFull) }
        backlog += bytes
        if retry == nil { flush() }
        if let failure { return .dropped(.failed(failure)) }
        return .written
    }

    /// Bytes waiting for the device.
    var waiting: Int { backlog.count }

    /// Writes no more; what waits is dropped. Call before the descriptor is closed.
    func close() {
        isClosed = true
        retry?.dispose()
        retry = nil
        backlog = []
    }

    private func flush() {
        guard !isClosed else { return }
        let result: Result<Int, Errno> = backlog.withUnsafeBytes { bytes in
            do throws(Errno) {
                return .success(try Syscall.write(descriptor, bytes))
            } catch {
                return .failure(error)
            }
        }
        let written: Int
        switch result {
        case .success(let count): written = count
        case .failure(.wouldBlock): written = 0
        case .failure(let error):
            failure = error
            backlog = []
            return
        }
        backlog.removeFirst(written)
        guard !backlog.isEmpty else { return }
        retry = executor.schedule(after: Self.retryInterval) { [weak self] in
            guard let self else { return }
            retry = nil
            flush()
        }
    }
}
