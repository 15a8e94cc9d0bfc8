import Dispatch
import Foundation

/// A thread of its own that a test can wait for: ``join()`` returns once its body returned,
/// woken by its end.
public final class JoinableThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [finished] in
            body()
            finished.signal()
        }
    }

    /// Waits until the body returned.
    public func join() {
        finished.wait()
        finished.signal()
    }

    /// Waits until the body returned, for at most `seconds`: whether it did.
    public func join(seconds: Double) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        finished.signal()
        return true
    }
}

/// Reads from the non-blocking descriptor `fd` until `count` bytes came or `seconds` passed,
/// woken each time it turns readable (poll): what came.
public func readBytes(from fd: Int32, count: Int, seconds: Double = 5) -> [UInt8] {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while received.count < count {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { break }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))) > 0 else { continue }
        let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, count - received.count)) }
        if got > 0 { received += chunk[..<got] } else if got == 0 { break }
    }
    return received
}

/// Writes `bytes` to the non-blocking descriptor `fd` as it takes them, woken each time it
/// turns writable (poll), for at most `seconds`: how many it took.
public func writeBytes(_ bytes: [UInt8], to fd: Int32, seconds: Double) -> Int {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var written = 0
    while written < bytes.count {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { break }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))) > 0 else { continue }
        let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if count > 0 { written += count } else if count < 0, errno != EAGAIN, errno != EINTR { break }
    }
    return written
}
