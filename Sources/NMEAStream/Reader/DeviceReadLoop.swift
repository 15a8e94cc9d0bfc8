import Dispatch
import Platform

/// What waits for a serial device's bytes and reads them, and where its reader runs.
///
/// By default a reader's device is read on SwiftNIO's shared event loops, and its bytes handed
/// to the reader's own queue (``EventLoopDeviceReadLoop/init()``). A program that runs event
/// loops of its own can run its readers there instead, so that the thread woken by the device
/// is the one that decodes the bytes and hands the result on
/// (``EventLoopDeviceReadLoop/init(group:)``; the gpsd-protocol server does this: a report
/// reaches a client on the thread that read it, with no hand-over between threads).
public protocol DeviceReadLoop: Sendable {
    /// Starts reading `descriptor`, a non-blocking serial device, and takes it over: the loop
    /// closes it once it has stopped reading it (or has failed to start).
    ///
    /// - Parameters:
    ///   - executor: the reader's (``makeExecutor(label:target:)``'s). `chunk` and `ended` run
    ///     there: in the read's own call when it is the loop the device is read on, in a job
    ///     given to it otherwise. Nothing waits for it.
    ///   - chunk: called with the bytes of each read as soon as `read(2)` returns them (valid
    ///     only during the call).
    ///   - ended: called at most once, when reading ends by itself: `nil` at the end of the
    ///     file, or the error the read failed with.
    /// - Returns: what stops the reading.
    func startReading(_ descriptor: Int32, on executor: any ReceiverExecutor,
                      chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading

    /// The executor a new reader of this loop's devices runs on: a serial queue named `label`
    /// that targets `target` (the default), or an event loop of the read loop's.
    func makeExecutor(label: String, target: DispatchQueue?) -> any ReceiverExecutor

    /// What reads a network receiver's sockets (its TCP connection or UDP socket) for a reader
    /// of this loop: the loop itself when it reads on event loops, SwiftNIO's shared loops by
    /// default.
    var socketReadLoop: EventLoopDeviceReadLoop { get }
}

extension DeviceReadLoop {
    /// A serial queue of the reader's own (the default).
    public func makeExecutor(label: String, target: DispatchQueue?) -> any ReceiverExecutor {
        SerialQueueExecutor(label: label, target: target)
    }

    /// SwiftNIO's shared loops (the default).
    public var socketReadLoop: EventLoopDeviceReadLoop { EventLoopDeviceReadLoop() }
}

/// A device being read by a ``DeviceReadLoop``.
public protocol DeviceReading: Sendable {
    /// Stops reading; called on the reader's executor. `released` is called once, from any
    /// thread (possibly before this returns), when the descriptor is closed and neither
    /// `chunk` nor `ended` will be called again.
    func stop(released: @escaping @Sendable () -> Void)
}
