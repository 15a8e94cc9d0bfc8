import Dispatch
import Platform

/// What waits for a serial device's bytes and reads them.
///
/// By default a reader's device is read on SwiftNIO's shared event loops, and its bytes handed
/// to the reader's queue (``EventLoopDeviceReadLoop/init()``). A program that runs event loops
/// of its own can read its devices there instead, so that the thread woken by the device is the
/// one that decodes the bytes and hands the result on (``EventLoopDeviceReadLoop/init(group:)``;
/// the gpsd-protocol server does this: a report reaches a client on the thread that read it,
/// with no hand-over between threads).
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
