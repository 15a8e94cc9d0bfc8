import Dispatch
import Synchronization
import Platform

/// Reads a ``GPSSource`` and tells its delegates about fixes, satellite views, sentences,
/// rejects, failures and the end of the stream.
///
/// The reader reads and decodes on its executor (``ReceiverExecutor``): by default a serial
/// queue of its own, which targets the queue given at creation, so every delegate call
/// arrives there, in input order, with no hop per event; with a read loop on the caller's
/// event loops (``EventLoopDeviceReadLoop/init(group:)``), the loop its device is read on. A
/// device is read on SwiftNIO's event loops, so with no data arriving nothing runs.
///
/// ```swift
/// let reader = NMEAReader(source: .serial(path: "/dev/ttyACM0", speed: 9600), queue: .main)
/// reader.delegate = tracker
/// reader.start()
/// ```
public final class NMEAReader: @unchecked Sendable {
    /// What the reader reads.
    public let source: GPSSource
    /// Where the reader reads, decodes and calls its delegates, one job at a time.
    public let executor: any ReceiverExecutor
    /// What waits for a device's bytes and reads them (unused for a log or bytes).
    public let readLoop: any DeviceReadLoop

    /// The one delegate, for the common case of one listener (held weakly); more can be added
    /// with ``addDelegate(_:)``.
    public var delegate: (any NMEAReaderDelegate)? {
        get { delegates.primary }
        set { delegates.primary = newValue }
    }

    /// Who listens: the one ``delegate`` and the added ones, changed from any thread.
    private let delegates = MulticastDelegate<any NMEAReaderDelegate>()
    /// Told every event first; set at creation, called on the reader's executor only.
    private let observer: ((Event) -> Void)?
    // Confined to `executor`: while a chunk is decoded, the live delegates as of the
    // delegates' change count `listenersVersion`, held strongly (so, kept alive until the chunk is done); empty, and
    // version -1, between chunks.
    private var listeners: [Listener] = []
    private var listenersVersion = -1

    /// A delegate held for a chunk, as a closure that calls it. A delegate is also referenced
    /// weakly (by the delegate list), so it has a side table, where each retain and release takes
    /// the runtime's slow path; called out of an array, it was retained and released for every
    /// event. Captured by a closure, it is borrowed from the closure's context, and only the
    /// context (no side table) is retained: the reader's own cost fell by a third (pipeline
    /// benchmark, "NMEAReader with one delegate").
    private typealias Listener = (NMEAReader, Event) -> Void
    // Confined to `executor`.
    var bytes: (any ByteSource)?
    var decoder: NMEADecoder?
    var isFinished = false
    var isDecoding = false
    private var finalStatistics = NMEAStatistics()
    // Confined to `executor`: the pauses between a device's bursts.
    private var quietLine = QuietLine()
    // Confined to `executor`: the watchdog's rules and timer; the name its failure gives (a
    // discovered device's path once chosen); the release of the source last closed.
    var staleWatch: StaleWatch
    var staleTimer: Disposable?
    var sourceName: String
    var closedRelease: DispatchGroup?
    /// What holds the reader paused, and what runs first when it goes on.
    let pause: SenderPause?
    let resumed: (@Sendable () -> Void)?
    // Confined to `executor`: whether a subscriber's full buffer holds the source paused; the
    // bytes of a chunk the decoder had not reached when it did, fed first when it goes on.
    var isSourcePaused = false
    var held: [UInt8] = []
    var heldReceivedAt: UTCTime?

    /// What has gone through so far: bytes, sentences by type, rejects by reason, fixes (over
    /// every device a ``GPSSource/watch`` reader has read). Read off the reader's executor, it
    /// waits for the executor's jobs before it: do not read it on the queue given at creation
    /// outside a delegate call.
    public var statistics: NMEAStatistics {
        if executor.isCurrent { return decoder?.statistics ?? finalStatistics }
        let result = Protected(NMEAStatistics())
        Self.wait { done in
            executor.schedule { [self] in
                result.withLock { $0 = decoder?.statistics ?? finalStatistics }
                done()
            }
        }
        return result.withLock { $0 }
    }

    /// Starts `work`, hands it what to call when it is done, and returns once it has called it.
    private static func wait(for work: (_ done: @escaping @Sendable () -> Void) -> Void) {
        let done = DispatchSemaphore(value: 0)
        work { done.signal() }
        done.wait()
    }

    /// How long ``SerialSpeed/automatic`` gives each speed (shorter in tests).
    var huntWindow = SpeedHunt.window

    /// Creates a reader of `source` that calls its delegates on `queue` (default: a queue of
    /// its own). Nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - queue: where the reader's own serial queue runs; unused when `readLoop` runs the
    ///     reader on an event loop (``DeviceReadLoop/makeExecutor(label:target:)``).
    ///   - readLoop: what waits for a device's bytes and reads them; `nil` (the default) for
    ///     SwiftNIO's shared event loops, handing the bytes to the reader's queue.
    ///   - staleLimit: how long a device or network source may send nothing before the reader
    ///     closes it and fails with ``GPSError/silent(source:seconds:)``; never by default.
    public convenience init(source: GPSSource, queue target: DispatchQueue? = nil, readLoop: (any DeviceReadLoop)? = nil,
                            staleLimit: StaleLimit = .never) {
        self.init(source: source, queue: target, readLoop: readLoop, staleLimit: staleLimit, observer: nil)
    }

    /// A reader whose events also go to `observer`, before its delegates, on the reader's
    /// executor: for ``GPSMonitor``, which turns them into the shared signals' events without a
    /// delegate of its own. With `pause`, the reader pauses while its subscribers' buffers
    /// hold it (``pauseChanged(_:)``), and `resumed` is called on its executor first when it
    /// goes on.
    package init(source: GPSSource, queue target: DispatchQueue? = nil, readLoop: (any DeviceReadLoop)? = nil,
                 staleLimit: StaleLimit = .never, observer: ((Event) -> Void)?, pause: SenderPause? = nil,
                 resumed: (@Sendable () -> Void)? = nil) {
        self.source = source
        self.observer = observer
        self.pause = pause
        self.resumed = resumed
        staleWatch = StaleWatch(limit: staleLimit)
        sourceName = source.description
        let readLoop = readLoop ?? EventLoopDeviceReadLoop()
        self.readLoop = readLoop
        executor = readLoop.makeExecutor(label: "nmeastream.reader \(source)", target: target)
    }

    deinit {
        // A reader dropped while running stops its source, on the executor the source runs
        // on, where the device closes; here once that executor runs no more jobs (its release
        // must still be told).
        if let bytes, !executor.scheduleWhileRunning({ bytes.stop() }) { bytes.stop() }
    }

    /// Adds a delegate (held weakly; adding one twice has no effect).
    public func addDelegate(_ delegate: any NMEAReaderDelegate) { delegates.add(delegate) }

    /// Removes a delegate; safe from inside a delegate call (it gets no call after the one
    /// under way).
    public func removeDelegate(_ delegate: any NMEAReaderDelegate) { delegates.remove(delegate) }

    /// Opens the source and starts reading, on the reader's executor; a failure to open arrives
    /// as ``NMEAReaderDelegate/reader(_:didFailWith:)``. Does nothing when already started.
    public func start() {
        executor.schedule { [self] in open() }
    }

    /// ``start()`` once everything entered in `previous` has left (a device released by the
    /// reader before this one), without waiting for it.
    package func start(after previous: DispatchGroup) {
        previous.notify(queue: .global()) { [self] in start() }
    }

    private func open() {
        guard bytes == nil, !isFinished else { return }
        let bytes = makeByteSource()
        self.bytes = bytes
        decoder = NMEADecoder()
        quietLine = QuietLine()
        if case .serial(_, .bitsPerSecond(let speed)) = source { quietLine.bitsPerSecond = speed }
        if isSourcePaused { bytes.pause() }
        bytes.start(on: executor, deliver: { [weak self] chunk in self?.decode(chunk) },
                    end: { [weak self] error in self?.end(error) })
        // A serial port at a speed given is counted from its opening; one whose speed is
        // hunted, from the speed found (the hunt ends on its own); a network source, from
        // each connection.
        if case .serial(_, .bitsPerSecond) = source { armStaleWatch() }
    }

    /// With ``GPSSource/watch``: the device went away. The epoch in progress is delivered; the
    /// next device starts on a clean stream.
    /// The speed a hunt found: the line's pauses are measured at it.
    func found(speed: Int) {
        quietLine.bitsPerSecond = speed
        armStaleWatch()
        send(.foundSpeed(speed))
    }

    func deviceLost(_ path: String) {
        guard !isFinished, let decoder else { return }
        // Finishing delivers the epoch in progress and leaves the decoder ready for a new stream
        // (no half sentence carried across); its counts go on.
        decoder.finish { event in send(.decoded(event)) }
        quietLine.reset()
        disarmStaleWatch()
        send(.lostDevice(path))
    }

    /// A network source lost its peer: as for a device lost, the epoch in progress is
    /// delivered and the next connection starts on a clean stream.
    func connectionLost(_ interruption: NetworkInterruption) {
        guard !isFinished else { return }
        decoder?.finish { event in send(.decoded(event)) }
        quietLine.reset()
        disarmStaleWatch()
        send(.lostConnection(interruption))
    }

    /// Stops reading and closes the source. Called from a thread that may wait, it returns
    /// once the device is closed; called on the reader's executor (from a delegate call), or
    /// on a thread that runs receivers' work (another reader's queue, an event loop), it
    /// returns at once and the device closes soon after. No delegate call follows the call on
    /// the reader's executor; called elsewhere, none follows its return.
    ///
    /// Do not call it on the queue given at creation outside a delegate call (for `.main`,
    /// from the main thread): it would wait for that queue, which is busy calling it.
    public func stop() {
        if executor.isCurrent { return halt() }
        if ReceiverWaiting.mayWait { Self.wait { done in stop(then: done) } } else { stop {} }
    }

    /// Stops reading without waiting: `released` runs once the source is closed (at once when
    /// none was open), on the reader's executor or the thread that closed it. No delegate call
    /// follows the reader's next turn on its executor (this call's own, on the executor).
    public func stop(then released: @escaping @Sendable () -> Void) {
        let halting: @Sendable () -> Void = { [self] in
            halt()
            if let group = release { group.notify(queue: .global(), execute: released) } else { released() }
        }
        // Once the executor's loops have shut down nothing runs there any more, and the
        // release must still be told: the stop runs here.
        if executor.isCurrent || !executor.scheduleWhileRunning(halting) { halting() }
    }

    /// Writes `bytes` to the open device, whole and after earlier ones; on the reader's
    /// executor, which ``CorrectionsFeed`` (the one writer: nothing else is ever written to a
    /// receiver) reaches through a ``HandOff``.
    func writeToDevice(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        assert(executor.isCurrent, "written off the reader's executor")
        guard let source = self.bytes, !isFinished else { return .dropped(.notOpen) }
        return source.write(bytes)
    }

    /// What the source's closing is tracked by, once halted: `nil` when nothing was open.
    private var release: DispatchGroup? { bytes?.released ?? closedRelease }

    private func halt() {
        isFinished = true
        disarmStaleWatch()
        guard let bytes else { return }
        closedRelease = bytes.released
        self.bytes = nil
        if let decoder { finalStatistics = decoder.statistics }
        decoder = nil
        bytes.stop()
    }

    private func decode(_ chunk: UnsafeRawBufferPointer) {
        guard let decoder else { return }
        // A device's bytes are stamped as they are read (the byte source calls this as soon as
        // read(2) returns), so that each fix knows when its first byte arrived; a log's are not.
        let receivedAt: UTCTime? = switch source {
        case .serial, .automatic, .watch, .network: .now
        case .log, .bytes, .merged: nil
        case .custom(let kind): kind.base.isLive ? .now : nil
        }
        isDecoding = true
        defer {
            isDecoding = false
            releaseListeners()
        }
        if receivedAt != nil {
            let now = DispatchTime.now().uptimeNanoseconds
            staleWatch.heard(at: now)
            if quietLine.read(byteCount: chunk.count, at: now) {
                send(.quiet)
                decoder.noteQuiet { event in
                    guard !isFinished else { return }
                    send(.decoded(event))
                }
            }
        }
        send(.read(chunk))
        guard held.isEmpty, !isSourcePaused else {
            // Paused, and a source that does not pause: its bytes wait behind the ones held.
            if held.isEmpty { heldReceivedAt = receivedAt }
            held.append(contentsOf: chunk)
            return
        }
        feedDecoder(chunk, receivedAt: receivedAt)
    }

    /// Decodes `chunk`, or as much of it as the subscribers take before the reader is paused:
    /// the rest is held, and fed when it goes on.
    func feedDecoder(_ chunk: UnsafeRawBufferPointer, receivedAt: UTCTime?) {
        guard let decoder else { return }
        let wasDecoding = isDecoding
        isDecoding = true
        defer {
            isDecoding = wasDecoding
            if !wasDecoding { releaseListeners() }
        }
        let taken = decoder.feedPausable(chunk, receivedAt: receivedAt) { event in
            guard !isFinished else { return }
            send(.decoded(event))
        }
        if taken < chunk.count, !isFinished {
            held.append(contentsOf: chunk[taken...])
            heldReceivedAt = receivedAt
        }
        if !isFinished { send(.finishedChunk) }
    }

    func end(_ error: GPSError?) {
        guard !isFinished else { return }
        disarmStaleWatch()
        if let decoder, !held.isEmpty {
            // Ended while paused (a source that does not pause): what waited is not lost.
            let bytes = held
            held = []
            bytes.withUnsafeBytes { bytes in decoder.feed(bytes, receivedAt: heldReceivedAt) { event in send(.decoded(event)) } }
        }
        if let decoder {
            decoder.finish { event in send(.decoded(event)) }
        }
        isFinished = true
        bytes = nil
        if let decoder { finalStatistics = decoder.statistics }
        decoder = nil
        if let error {
            send(.failed(error))
        } else {
            send(.finished)
        }
    }

    /// Tells the observer, then every live delegate: the delegate, then the added ones in the
    /// order they came. On every event: one atomic load (the delegates' change count), then
    /// the delegates as the chunk's decoding last saw them (read again after a change, so a
    /// delegate removed in a call gets no further one).
    func send(_ event: Event) {
        observer?(event)
        let version = delegates.changeCount
        if version != listenersVersion {
            listeners = delegates.live().map(Self.listener)
            listenersVersion = version
        }
        for listener in listeners { listener(self, event) }
        if !isDecoding { releaseListeners() }
    }

    private static func listener(_ delegate: any NMEAReaderDelegate) -> Listener {
        { reader, event in delegate.reader(reader, didSend: event) }
    }

    /// Lets go of the delegates: between chunks the reader holds none of them.
    private func releaseListeners() {
        listeners.removeAll(keepingCapacity: true)
        listenersVersion = -1
    }
}
