import GPSDProtocol
import NIOCore

/// What a served device's publisher writes to: each epoch, time report, sentence and read's
/// bytes is rendered once (``ServedDevice/publish(_:)-(Epoch)``) and the same buffer handed to
/// every watcher that asked for it. A gpsd client, a client of the plain NMEA feed and the
/// page's feed are ``ClientConnection``s of three roles; the UDP feed is an
/// ``NMEADatagramFeed``. A new kind of output is one more type that conforms.
///
/// A watcher keeps the devices it watches open, as any subscriber does: the first opens a
/// device, and it closes after the last one goes (and the linger).
protocol DeviceWatcher: AnyObject, Sendable {
    /// The event loop its writes run on: watchers of one loop share one task per report, and
    /// a device opened for it is read there. `nil` for one that takes a buffer on any thread
    /// without waiting (it hands it on itself).
    var eventLoop: EventLoop? { get }

    /// What it takes from the device at `path`; `nil` when it does not watch it.
    func streams(from path: String) -> WatchedStreams?

    /// A rendered report, sentence or read's bytes, on ``eventLoop`` (or any thread when that
    /// is `nil`); never waits. `coalescing`: one of several small writes that come together
    /// (a chunk's sentences), which may go out with the others.
    func deliver(_ buffer: ByteBuffer, coalescing: Bool)

    /// A notice about a device (gpsd's `DEVICE` line, when it opens, goes or comes back),
    /// from any thread; a watcher that speaks no gpsd ignores it.
    func notify(_ line: [UInt8])
}
