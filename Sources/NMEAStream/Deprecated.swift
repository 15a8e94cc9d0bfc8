// Names the library had before, kept for one release so that code written against them still
// builds, with a fix-it to the new name.

/// Replaced by ``EventLoopDeviceReadLoop``, whose ``EventLoopDeviceReadLoop/init()`` reads as
/// this did: on threads the library owns, with each read's bytes handed to the reader's
/// queue. Dispatch read sources are no longer used for devices: on Linux, libdispatch can
/// crash when such sources come and go on several threads (swift-corelibs-libdispatch issue
/// 949).
@available(*, deprecated, renamed: "EventLoopDeviceReadLoop")
public typealias DispatchDeviceReadLoop = EventLoopDeviceReadLoop

extension DeviceReadLoop {
    /// Whether the calling thread may block until a device is released: `false` on a thread
    /// that runs receivers' work (a reader's queue, an event loop). A read loop no longer
    /// decides it: one rule covers every receiver.
    @available(*, deprecated, message: "no longer asked: a thread that runs receivers' work never waits for one")
    public var mayWaitForRelease: Bool { ReceiverWaiting.mayWait }
}
