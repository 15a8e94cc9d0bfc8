import Dispatch
import NMEA
import Signals
import Synchronization
import Platform

/// A source's fixes, satellite views, sentences and rejects as signals that share one reader.
///
/// Built the way ReactiveCocoa's `monitorLocations` is: a cold `Signal { observer in ... }`
/// creates an ``NMEAReader`` whose events (``NMEAReader/Event``) it turns into the signal's:
/// an epoch, a sentence, a reject or the bytes read into `next`, a failure into `error` and
/// the end of the stream into `completed`; it starts the reader, and returns a disposable that
/// stops the reader and closes the device. That signal is shared with reference counting
/// (`share()`): the device opens for the first subscriber of any of the four signals, stays
/// open once for all of them, and closes when the last one disposes; a later subscriber opens
/// it again.
///
/// ```swift
/// let gps = GPSMonitor(source: .serial(path: "/dev/ttyACM0", speed: 9600))
/// let subscription = gps.fixes.observe(next: { fix in print(fix.latitude ?? .nan) })
/// // ...
/// subscription.dispose()     // the last subscriber: the device closes before this returns
/// ```
///
/// ## Delivery
/// Each subscriber is called on a serial queue of its own, in order, through a buffer
/// (Signals' ``Signal/buffer(_:on:dropped:)``) whose policy depends on the source:
/// - **A recorded log or bytes** (finite): ``BufferPolicy/lossless(capacity:)``. Nothing is
///   lost: when a subscriber has 256 values waiting, the reader pauses (the decoder stops after
///   the sentence under way, and the log is not read further) until the subscriber has taken
///   half of them; no thread waits meanwhile. A replay through any
///   subscriber gives exactly what `nmeastream replay` gives.
/// - **A device** (serial, automatic, watch): ``BufferPolicy/newest(capacity:)``. A receiver
///   does not wait: a subscriber that falls more than 256 values behind skips ahead to the
///   newest, and every value it skips is counted (``dropped``, and the counter a
///   subscription may pass).
///
/// ``fixes(delivery:dropped:)`` and its siblings choose per subscription. A device never
/// waits for a subscriber, whatever it asks: a lossless policy on a device keeps its capacity
/// but skips ahead past it, counted (waiting would leave the bytes in the kernel's small
/// terminal buffer, which drops them without a word). The same rule holds for `observe`,
/// `values` and the delegate. The end of the stream, or its failure, is never dropped.
///
/// A `for try await` loop over one of these signals' `values` has one buffer, its own: the
/// values go from the reader's queue straight into the sequence, under the same policy
/// (or the one given to `values(bufferingPolicy:dropped:)`), with no queue between.
///
/// A subscriber that joins while the device is open first receives the latest fix of that
/// connection (not one from before a reconnect), then the live ones.
///
/// The device opens on the reader's queue after the first subscription returns: a failure to
/// open arrives as the signal's error, not from `observe`. To have several subscribers see a
/// log from its first fix, create the monitor with `opening: .onConnect`, subscribe them all,
/// then call ``connect()``.
public final class GPSMonitor: Sendable {
    /// What the monitor reads.
    public let source: GPSSource
    /// How each subscription is buffered unless it says otherwise (see "Delivery").
    public let delivery: BufferPolicy
    /// Every value skipped by every subscription of this monitor so far (only
    /// ``BufferPolicy/newest(capacity:)`` skips).
    public let dropped = DropCounter()
    /// The shared events; disposing a subscription waits for the device's release where the
    /// caller may wait.
    private let events: Signal<GPSEvent, GPSError>
    /// The latest fix of the connection (kept by its subject), then the live ones; the same wait.
    private let latestFixes: Signal<Fix, GPSError>
    private let connection: MonitorConnection
    private let manualConnection: MulticastConnection<GPSEvent, GPSError>?
    /// Ends the linger under way, if any.
    private let endLinger: (@Sendable () -> Void)?

    /// The reader of the connection now open, if any (for the tests of its lifetime).
    var currentReader: NMEAReader? { connection.reader }

    /// Whether a subscriber's full buffer holds the reader paused now (for the tests).
    var isReaderHeld: Bool { connection.isHeld }

    /// How many values may wait for a subscriber by default.
    public static let defaultCapacity = 256

    /// When the source is opened.
    public enum Opening: Sendable, Hashable {
        /// For the first subscriber; closed after the last one leaves.
        case onFirstSubscriber
        /// By ``GPSMonitor/connect()`` only; closed when its result is disposed.
        case onConnect
    }

    /// Creates a monitor of `source`. Nothing is opened until something subscribes (or, with
    /// `opening: .onConnect`, until ``connect()``).
    ///
    /// - Parameters:
    ///   - delivery: how subscriptions are buffered by default; `nil` (the default) chooses by
    ///     source: lossless for a log or bytes, newest for a device, each with
    ///     ``defaultCapacity``.
    ///   - opening: when the source opens.
    ///   - linger: with `.onFirstSubscriber`, how long the source stays open after the last
    ///     subscriber left: one that comes within it joins the open device (zero, the default:
    ///     closed at once).
    ///   - readLoop: what waits for a device's bytes and reads them; `nil` (the default) for
    ///     SwiftNIO's shared event loops, handing the bytes to the reader's queue. With loops of
    ///     the caller's (``EventLoopDeviceReadLoop/init(group:)``), the reader
    ///     decodes, and unbuffered subscribers run, on that loop's thread: a subscriber that
    ///     blocks holds up the loop. The last dispose waits until the device is closed, except
    ///     on a thread that runs receivers' work (a reader's queue, an event loop): there it
    ///     returns at once, and the next open waits for the release instead.
    ///   - staleLimit: how long the open source may send nothing before it is closed and the
    ///     subscribers fail with ``GPSError/silent(source:seconds:)`` (a subscriber may
    ///     subscribe again to reopen it); never by default.
    ///   - corrections: RTK corrections written to the device while it is open (the feed is
    ///     connected to its caster while some device is attached to it); none by default.
    ///   - integrity: the limits of the integrity checks run on every epoch (``IntegrityCheck``):
    ///     each fix carries the checks it failed (``Fix/integrity``) and the events come as
    ///     ``GPSEvent/integrity(_:)``; `nil` (the default) for none.
    public convenience init(source: GPSSource, delivery: BufferPolicy? = nil, opening: Opening = .onFirstSubscriber,
                            linger: Duration = .zero, readLoop: (any DeviceReadLoop)? = nil, staleLimit: StaleLimit = .never,
                            corrections: CorrectionsFeed? = nil, integrity: IntegrityThresholds? = nil) {
        let readLoop = readLoop ?? EventLoopDeviceReadLoop()
        let connection = MonitorConnection()
        let reading = Signal<GPSEvent, GPSError> { observer in
            let check = integrity.map { IntegrityCheck(thresholds: $0, source: source.description) }
            let forwarder = EventForwarder(observer: observer, connection: connection, integrity: check)
            let reader = NMEAReader(source: source, readLoop: readLoop, staleLimit: staleLimit, observer: forwarder.take,
                                    pause: connection.pause, resumed: forwarder.resume)
            connection.connect(reader)
            let attachment = corrections?.attach(reader)
            // Opens once the device of the connection before is released.
            reader.start(after: connection.releases)
            // Stops the reader without waiting: this runs inside the shared connection's
            // disconnect, which must never block on the device (a thread that connects would
            // wait behind it). The public subscriptions wait, at their edge, where they may.
            return BlockDisposable {
                attachment?.dispose()
                connection.release(reader)
            }
        }
        self.init(source: source, delivery: delivery, opening: opening, linger: linger, connection: connection, reading: reading)
    }

    /// A monitor of `source` whose events `reading` makes, each time it is connected.
    init(source: GPSSource, delivery: BufferPolicy?, opening: Opening, linger: Duration, connection: MonitorConnection,
         reading: Signal<GPSEvent, GPSError>) {
        self.source = source
        self.delivery = delivery ?? (source.isFinite ? .lossless(capacity: Self.defaultCapacity)
            : .newest(capacity: Self.defaultCapacity))
        self.connection = connection
        // One subject per connection, which keeps the latest epoch with a fix: the fixes'
        // subscribers get it first, under the subject's lock, then the live events.
        let multicast = reading.multicast { Subject<GPSEvent, GPSError>(keepingLatest: { $0.fix != nil }) }
        let shared: Signal<GPSEvent, GPSError>, latestFirst: Signal<GPSEvent, GPSError>
        switch opening {
        case .onFirstSubscriber:
            let signals = multicast.sharedSignals(linger: linger > .zero
                ? (linger, QueueScheduler(queue: DispatchQueue(label: "nmeastream.linger"))) : nil)
            (shared, latestFirst) = (signals.signal, signals.latestFirst)
            endLinger = linger > .zero ? signals.endLinger : nil
            manualConnection = nil
        case .onConnect:
            (shared, latestFirst) = (multicast.signal, multicast.signal(replayingLatest: true))
            endLinger = nil
            manualConnection = multicast
        }
        let waitForRelease: @Sendable () -> Void = { connection.waitForRelease() }
        events = shared.doOn(disposed: waitForRelease)
        latestFixes = latestFirst.compactMap(\.fix).doOn(disposed: waitForRelease)
    }

    /// A network source's connections as they are made and lost (nothing for other sources),
    /// while the source is open: for saying so. Observing it does not open the source. Told on
    /// the reader's queue: return at once.
    public var networkConnections: Signal<NetworkConnectionEvent, Never> { connection.networkConnections.signal }

    /// Ends the linger now, if the last subscriber has left and it runs, and returns once the
    /// device is closed (where the caller may wait): for a program that stops.
    package func endLingering() {
        endLinger?()
        connection.waitForRelease()
    }

    /// Opens the source now and keeps it open until the result is disposed. With
    /// `opening: .onConnect` this is what opens it: subscribe first, then connect, and every
    /// subscriber sees the stream from its start. With `.onFirstSubscriber` it counts as one
    /// more subscriber.
    public func connect() -> Disposable {
        guard let manualConnection else { return events.observe { _ in } }
        let connected = manualConnection.connect(), connection = self.connection
        return BlockDisposable {
            connected.dispose()
            connection.waitForRelease()
        }
    }

    /// A monitor whose subscribers each keep up to `backlog` values and skip ahead past that.
    @available(*, deprecated, message: "use init(source:delivery:) with .newest(capacity:)")
    public convenience init(source: GPSSource, backlog: Int) {
        self.init(source: source, delivery: .newest(capacity: backlog))
    }

    /// Completed epochs, delivered by the monitor's ``delivery``.
    public var fixes: Signal<Fix, GPSError> { fixes(delivery: delivery) }

    /// The serial speed the open device is read at, bits per second, once the reader has found
    /// it by listening (or opened it at the speed given); `nil` before that, and for sources
    /// that are not serial ports.
    public var speed: Int? {
        if let found = connection.speed { return found }
        // A speed given is not hunted for, so not told: the source says it.
        if case .serial(_, .bitsPerSecond(let given)) = source, connection.reader != nil { return given }
        return nil
    }

    /// Completed satellite views, one per constellation and signal: an epoch's views come
    /// together, when the epoch completes.
    public var satellites: Signal<SatelliteView, GPSError> { satellites(delivery: delivery) }

    /// Every checksum-valid sentence, copied (only while this signal has subscribers).
    public var sentences: Signal<ReceivedSentence, GPSError> { sentences(delivery: delivery) }

    /// Input that was rejected, with the reason.
    public var rejects: Signal<RejectedInput, GPSError> { rejects(delivery: delivery) }

    /// ``fixes`` buffered by `delivery`; each value skipped is counted in `dropped` (when
    /// given) and in the monitor's ``dropped``.
    public func fixes(delivery: BufferPolicy, dropped: DropCounter? = nil) -> Signal<Fix, GPSError> {
        buffered(latestFixes, "fixes", delivery, dropped)
    }

    /// ``satellites`` buffered by `delivery` (see ``fixes(delivery:dropped:)``).
    public func satellites(delivery: BufferPolicy, dropped: DropCounter? = nil) -> Signal<SatelliteView, GPSError> {
        let events = self.events
        let views = Signal<SatelliteView, GPSError> { observer in
            events.observe { event in
                switch event {
                case .next(let event): for view in event.epoch?.views ?? [] { observer.next(view) }
                case .failed(let error): observer.failed(error)
                case .completed: observer.completed()
                }
            }
        }
        return buffered(views, "satellites", delivery, dropped)
    }

    /// ``sentences`` buffered by `delivery` (see ``fixes(delivery:dropped:)``).
    public func sentences(delivery: BufferPolicy, dropped: DropCounter? = nil) -> Signal<ReceivedSentence, GPSError> {
        buffered(interested([.sentences]) { $0.sentence }, "sentences", delivery, dropped)
    }

    /// ``rejects`` buffered by `delivery` (see ``fixes(delivery:dropped:)``).
    public func rejects(delivery: BufferPolicy, dropped: DropCounter? = nil) -> Signal<RejectedInput, GPSError> {
        buffered(interested([.rejects]) { $0.rejected }, "rejects", delivery, dropped)
    }

    /// Epochs, and sentences, rejects and the bytes read as asked, in the order the reader
    /// made them, through one buffer: for a consumer that needs them in the receiver's order.
    /// With `satellites` false, only the epochs with a fix come, without their skies.
    /// Buffered by `delivery` (the monitor's ``delivery`` when `nil`); skipped events counted
    /// in `dropped` and in the monitor's ``dropped``.
    public func events(satellites: Bool = true, sentences: Bool = false, rejects: Bool = false, bytes: Bool = false,
                       delivery: BufferPolicy? = nil, dropped: DropCounter? = nil) -> Signal<GPSEvent, GPSError> {
        buffered(chosen(satellites ? .whole : .fixesOnly, sentences, rejects, bytes), "events", delivery ?? self.delivery, dropped)
    }

    /// ``events(satellites:sentences:rejects:bytes:delivery:dropped:)`` with no buffer: the
    /// observer is called on the reader's queue, in the reader's own call, with no hop. For a
    /// consumer that only hands each event on without waiting (the gpsd-protocol server
    /// renders it and queues it for its clients' event loop): one that blocks holds up the
    /// reader and every other subscriber, and nothing is dropped for it.
    /// With `epochs` false, no epoch comes: for a consumer of sentences or bytes alone.
    package func eventsOnReaderQueue(epochs: Bool, sentences: Bool, bytes: Bool) -> Signal<GPSEvent, GPSError> {
        chosen(epochs ? .whole : .none, sentences, false, bytes)
    }

    /// Every epoch, and the sentences and bytes whenever ``askForSentencesAndBytes()`` has
    /// asked the reader for them, unbuffered on the reader's queue: for a consumer that wants
    /// them only at times, and in one subscription (so that it opens the device with the
    /// reader already asked, and misses none of the first read's bytes).
    package func eventsOnReaderQueueAsAsked() -> Signal<GPSEvent, GPSError> {
        interested([]) { event in
            switch event {
            case .rejected: nil
            default: event
            }
        }
    }

    /// Asks the reader for its sentences and bytes until the result is disposed (see
    /// ``eventsOnReaderQueueAsAsked()``).
    package func askForSentencesAndBytes() -> Disposable {
        let connection = self.connection
        connection.subscribe(.sentences)
        connection.subscribe(.bytes)
        return BlockDisposable {
            connection.unsubscribe(.sentences)
            connection.unsubscribe(.bytes)
        }
    }

    /// Which epochs a subscription takes.
    private enum EpochChoice {
        /// Every epoch, with its sky.
        case whole
        /// The epochs with a fix, without their skies.
        case fixesOnly
        /// None.
        case none
    }

    /// The epochs and the kinds asked for, unbuffered.
    private func chosen(_ epochs: EpochChoice, _ sentences: Bool, _ rejects: Bool, _ bytes: Bool) -> Signal<GPSEvent, GPSError> {
        let kinds = [(sentences, MonitorConnection.Kind.sentences), (rejects, .rejects), (bytes, .bytes)]
            .filter(\.0).map(\.1)
        return interested(kinds) { event -> GPSEvent? in
            switch event {
            case .epoch(let epoch):
                switch epochs {
                case .whole: event
                case .fixesOnly: epoch.sky == nil ? event : epoch.fix.map { .epoch(Epoch(sky: nil, fix: $0)) }
                case .none: nil
                }
            case .sentence: sentences ? event : nil
            case .rejected: rejects ? event : nil
            case .bytes: bytes ? event : nil
            case .integrity, .sourceChanged: epochs == .none ? nil : event
            }
        }
    }

    /// What `pick` takes of the events, with the reader told to send `kinds` while this has
    /// subscribers: a reader with only fix subscribers spends nothing on the other kinds.
    private func interested<Value: Sendable>(_ kinds: [MonitorConnection.Kind],
                                             _ pick: @escaping @Sendable (GPSEvent) -> Value?) -> Signal<Value, GPSError> {
        let events = self.events, connection = self.connection
        return Signal { observer in
            for kind in kinds { connection.subscribe(kind) }
            let upstream = events.compactMap(pick).observe(observer)
            return BlockDisposable {
                upstream.dispose()
                for kind in kinds { connection.unsubscribe(kind) }
            }
        }
    }

    /// `signal` through one buffer per subscription, on a queue of its own. A device never
    /// waits for a subscriber: its lossless policies skip ahead (see
    /// ``Signal/buffer(_:senderWaits:pause:dropped:scheduler:)``). A recorded log is paused
    /// while a lossless buffer is full: no thread waits.
    private func buffered<Value: Sendable>(_ signal: Signal<Value, GPSError>, _ label: String, _ delivery: BufferPolicy,
                                           _ dropped: DropCounter?) -> Signal<Value, GPSError> {
        signal.buffer(delivery, senderWaits: source.isFinite, pause: connection.pause,
                      dropped: DropCounter(alsoCounting: dropped, self.dropped)) {
            QueueScheduler(queue: DispatchQueue(label: "nmeastream.\(label)"))
        }
    }
}
