import Dispatch
import Platform

/// What waits for a serial device's bytes and reads them.
///
/// By default a reader waits on a Dispatch read source that runs on its own queue
/// (``DispatchDeviceReadLoop``): Dispatch's event thread sees the bytes arrive and wakes a
/// worker thread to read them. A program that runs an event loop of its own can read its
/// devices there instead, so that the thread woken by the device is the one that decodes the
/// bytes and hands the result on (the gpsd-protocol server does this: a report reaches a client
/// on the thread that read it, with no hand-over between threads).
public protocol DeviceReadLoop: Sendable {
    /// Starts reading `descriptor`, a non-blocking serial device, and takes it over: the loop
    /// closes it once it has stopped reading it (or has failed to start).
    ///
    /// - Parameters:
    ///   - queue: the reader's queue. `chunk` and `ended` run there: either in a block on it
    ///     or inside `queue.sync` from the loop's own thread.
    ///   - chunk: called with the bytes of each read as soon as `read(2)` returns them (valid
    ///     only during the call).
    ///   - ended: called at most once, when reading ends by itself: `nil` at the end of the
    ///     file, or the error the read failed with.
    /// - Returns: what stops the reading.
    func startReading(_ descriptor: Int32, on queue: DispatchQueue,
                      chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading

    /// Whether the calling thread may block until a device read by this loop is released.
    /// `false` on the loop's own threads: releasing needs them, and an event loop must not
    /// block. Where it may not, the last dispose returns at once and the device closes soon
    /// after; a subscriber that comes meanwhile opens it once it is closed.
    var mayWaitForRelease: Bool { get }
}

extension DeviceReadLoop {
    /// Any thread may wait (the default): the loop releases a device on threads of its own.
    public var mayWaitForRelease: Bool { true }
}

/// A device being read by a ``DeviceReadLoop``.
public protocol DeviceReading: Sendable {
    /// Stops reading; called on the reader's queue. `released` is called once, from any
    /// thread (possibly before this returns), when the descriptor is closed and neither
    /// `chunk` nor `ended` will be called again.
    func stop(released: @escaping @Sendable () -> Void)
}

/// The default ``DeviceReadLoop``: a Dispatch read source on the reader's queue, so that with
/// no data arriving nothing runs.
public struct DispatchDeviceReadLoop: DeviceReadLoop {
    /// Creates the default read loop.
    public init() {}

    public func startReading(_ descriptor: Int32, on queue: DispatchQueue,
                             chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                             ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading {
        DispatchDeviceReading(descriptor, on: queue, chunk: chunk, ended: ended)
    }
}

/// One device read on a Dispatch read source. Its state is confined to the reader's queue.
private final class DispatchDeviceReading: DeviceReading, @unchecked Sendable {
    private let source: DispatchSourceRead
    private var released: (@Sendable () -> Void)?
    private var isStopped = false

    init(_ descriptor: Int32, on queue: DispatchQueue, chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
         ended: @escaping @Sendable (Errno?) -> Void) {
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        source.setEventHandler { [self] in
            while !isStopped {
                do throws(Errno) {
                    let count = try Syscall.read(descriptor, into: buffer)
                    guard count > 0 else { return end(nil, ended) }
                    chunk(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    if count < buffer.count { return }
                } catch {
                    if error != .wouldBlock { end(error, ended) }
                    return
                }
            }
        }
        // After the source can no longer read the descriptor. (The handlers hold this object;
        // Dispatch lets go of them once the source is cancelled.)
        source.setCancelHandler { [self] in
            Syscall.close(descriptor)
            buffer.deallocate()
            released?()
            released = nil
        }
        source.resume()
    }

    private func end(_ error: Errno?, _ ended: @Sendable (Errno?) -> Void) {
        isStopped = true
        ended(error)
    }

    func stop(released: @escaping @Sendable () -> Void) {
        isStopped = true
        self.released = released
        source.cancel()
    }
}
