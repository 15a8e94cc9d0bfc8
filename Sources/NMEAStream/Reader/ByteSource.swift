import Dispatch

/// Produces a source's bytes on the reader's executor: `deliver` for each chunk, then `end`
/// once (`nil` for a normal end). Every method runs there. One is made for each
/// opening of a source (see ``GPSSourceKind``).
public protocol ByteSource: AnyObject, Sendable {
    /// Opens what the source reads and starts delivering, on `executor` (the reader's, where
    /// this is called; its timers go there too): each chunk of bytes (valid only during the
    /// call) to `deliver`, then `end` once, with `nil` for a normal end (a file's).
    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void)
    /// Stops delivering and starts releasing what the source holds; `released` is left once
    /// that is done (for a device, when its channel has closed it).
    func stop()
    /// Entered when the source opened something, left when it released it.
    var released: DispatchGroup { get }
    /// Writes `bytes` to the device, whole and in order after earlier ones, or drops them
    /// whole (see ``DeviceWriter``): the RTCM corrections a receiver is fed, and nothing else.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome
    /// Delivers nothing more until ``resume()``: a subscriber's lossless buffer is full. Only
    /// a source that is read at its own pace (a recorded log) pauses; a live one goes on, and
    /// its subscribers skip ahead instead.
    func pause()
    /// Delivers again after ``pause()``.
    func resume()
}

extension ByteSource {
    /// Nothing is written: the source is not a device.
    public func write(_ bytes: [UInt8]) -> DeviceWriteOutcome { .dropped(.notADevice) }
    /// A live source does not pause.
    public func pause() {}
    /// A live source does not pause.
    public func resume() {}
}
