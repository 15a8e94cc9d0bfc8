/// The whole NMEA pipeline in one object: bytes in; sentences, UBX frames, epochs (each a fix
/// and its sky) and rejects out.
///
/// It chains ``NMEAFramer``, ``NMEASentence/decode(_:)`` and ``EpochAssembler`` with plain
/// function calls: no queue hop, no copy of the bytes, no heap allocation per sentence on the
/// common path. Not thread-safe: feed it from one queue at a time.
public final class NMEADecoder {
    /// What the decoder hands out, in input order.
    public enum Event {
        /// A checksum-valid sentence, raw (borrowed: valid only during the callback). Call
        /// ``NMEASentence/decode(_:)`` on it for the typed value: the decoder does not hand
        /// out a copy nobody asked for.
        case sentence(RawSentence)
        /// A checksum-valid u-blox UBX frame, raw (borrowed: valid only during the callback).
        /// Call ``UBXMessage/decode(_:)`` on it for the typed value. A field of a decoded
        /// message that could not be read comes right after it, as a reject.
        case ubx(UBXFrame)
        /// A completed epoch: the satellite views gathered since the last one, completed by its
        /// fix's dilutions, then the fix; or, from a receiver that reports views without fixes,
        /// a sky alone. (An epoch is a reference to its storage: the event stays small.)
        case epoch(Epoch)
        /// Input that was rejected, with the reason. A malformed field comes right after its
        /// sentence (which is decoded and used without it), one reject per field.
        case rejected(RejectedInput)

        /// The epoch, when this is one.
        public var epoch: Epoch? { if case .epoch(let epoch) = self { epoch } else { nil } }
        /// The epoch's fix, when this is an epoch with one.
        public var fix: Fix? { if case .epoch(let epoch) = self { epoch.fix } else { nil } }
    }

    /// The framer's settings.
    public let framerConfiguration: NMEAFramer.Configuration
    /// Counts of what has gone through.
    public var statistics: NMEAStatistics { core.pointee.statistics.snapshot() }

    private struct Core {
        var statistics = StatisticsCounter()
        var assembler: EpochAssembler
        /// The chunk being fed, and when it was read.
        var chunk: Range<UnsafeRawPointer>?
        var chunkReceivedAt: UTCTime?
        /// When the sentence the framer holds unfinished began to arrive.
        var partialReceivedAt: UTCTime?
    }

    private let framer: NMEAFramer
    // Behind a pointer the decoder owns: no dynamic exclusivity check per sentence.
    private let core: UnsafeMutablePointer<Core>

    /// Creates a decoder.
    public init(framer: NMEAFramer.Configuration = NMEAFramer.Configuration(),
                dates: DateResolver.Configuration = DateResolver.Configuration()) {
        framerConfiguration = framer
        self.framer = NMEAFramer(configuration: framer)
        core = .allocate(capacity: 1)
        core.initialize(to: Core(assembler: EpochAssembler(dates: dates)))
    }

    deinit {
        core.deinitialize(count: 1)
        core.deallocate()
    }

    /// Feeds a chunk of bytes (any size, split anywhere) and calls `handler` for each event.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ handler: (Event) -> Void) {
        feed(bytes, receivedAt: nil, handler)
    }

    /// Feeds a chunk of bytes read from a device at `receivedAt` (the system clock's time when
    /// the read returned them), and calls `handler` for each event. Each fix's
    /// ``Fix/receivedAt`` is then the time of the chunk in which its epoch's first sentence
    /// began, even when that sentence ended chunks later.
    public func feed(_ bytes: UnsafeRawBufferPointer, receivedAt: UTCTime?, _ handler: (Event) -> Void) {
        _ = feed(bytes, receivedAt: receivedAt, pausable: false, handler)
    }

    /// ``feed(_:receivedAt:_:)`` that `handler` may stop (``stopFeeding()``): returns how
    /// many of the bytes it took, all of them unless it was stopped; the rest is then to be
    /// fed later, before anything newer.
    public func feedPausable(_ bytes: UnsafeRawBufferPointer, receivedAt: UTCTime?, _ handler: (Event) -> Void) -> Int {
        feed(bytes, receivedAt: receivedAt, pausable: true, handler)
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, receivedAt: UTCTime?, pausable: Bool, _ handler: (Event) -> Void) -> Int {
        let core = self.core
        if let base = bytes.baseAddress {
            core.pointee.chunk = base..<(base + bytes.count)
        }
        core.pointee.chunkReceivedAt = receivedAt
        let taken = Handler.with(handler) { handler in
            let handle: (NMEAFramer.Event) -> Void = { event in Self.handle(event, core, handler) }
            if pausable { return framer.feedPausable(bytes, handle) }
            framer.feed(bytes, handle)
            return bytes.count
        }
        core.pointee.statistics.bytes += taken
        core.pointee.chunk = nil
        if !framer.hasPartialSentence {
            core.pointee.partialReceivedAt = nil
        } else if core.pointee.partialReceivedAt == nil {
            core.pointee.partialReceivedAt = receivedAt
        }
        return taken
    }

    /// Makes the ``feedPausable(_:receivedAt:_:)`` under way return after the event just
    /// handed out (called from its handler): a reader whose consumer is full stops there, and feeds the rest once it has
    /// room. The event's epoch is whole; what follows waits in the bytes not taken.
    public func stopFeeding() { framer.stopFeeding() }

    /// Feeds the bytes of a collection, such as an `[UInt8]` or a `String.UTF8View`.
    public func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ handler: (Event) -> Void) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            feed(UnsafeRawBufferPointer(buffer), handler)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { feed($0, handler) }
        }
    }

    /// Tells the decoder that the line was quiet before the bytes it is fed next: a device's
    /// receiver paused there, so what came before ended a burst of its cycle. A reader tells
    /// this from when its reads return (a log read from a file has no such evidence). It
    /// decides which cycle a sentence without a time belongs to, where the order alone cannot:
    /// see ``EpochAssembler``. A quiet in the middle of a sentence or a frame (a slow link)
    /// says nothing, and is ignored. `handler` receives an epoch the quiet completes.
    public func noteQuiet(_ handler: (Event) -> Void) {
        guard !framer.hasPartialSentence else { return }
        let core = self.core
        Handler.with(handler) { handler in
            var sink = Sink(core: core, handler: handler)
            core.pointee.assembler.noteQuiet(into: &sink)
        }
    }

    /// Ends the input: an unfinished sentence is rejected and the epoch in progress delivered,
    /// with any satellite views no fix completed.
    public func finish(_ handler: (Event) -> Void) {
        let core = self.core
        Handler.with(handler) { handler in
            framer.finish { event in Self.handle(event, core, handler) }
            var sink = Sink(core: core, handler: handler)
            core.pointee.assembler.finish(into: &sink)
        }
    }

    /// The caller's handler, reached without reference counting on the per-sentence path.
    private typealias Handler = UnretainedHandler

    private typealias CorePointer = UnsafeMutablePointer<Core>

    // Static, with the state passed in: the per-sentence path then retains nothing.
    private static func handle(_ event: NMEAFramer.Event, _ core: CorePointer, _ handler: Handler) {
        switch event {
        case .rejected(let reject):
            core.pointee.statistics.count(reject)
            handler(.rejected(reject))
        case .ubx(let frame):
            handle(frame, core, handler)
        case .sentence(let raw):
            noteArrival(of: UnsafeRawPointer(raw.base), core)
            var feed = Feed(core: core, raw: raw, handler: handler)
            if !NMEASentence.decode(raw, into: &feed) {
                core.pointee.statistics.countSentence(raw.address, length: raw.length, decoded: false)
                handler(.sentence(raw))
            }
        }
    }

    /// A UBX frame: counted, handed out, decoded and taken to the assembler. Out of line: the
    /// per-sentence path above stays as small as it was before UBX (code that does not fit the
    /// instruction cache beside the sentence decoders costs NMEA decoding time, measured).
    @inline(never)
    private static func handle(_ frame: UBXFrame, _ core: CorePointer, _ handler: Handler) {
        core.pointee.statistics.countFrame(frame.kind)
        handler(.ubx(frame))
        guard let (message, malformed) = UBXMessage.decode(frame) else { return }
        for reject in rejects(malformed, in: frame) {
            core.pointee.statistics.count(reject)
            handler(.rejected(reject))
        }
        noteArrival(of: UnsafeRawPointer(frame.base), core)
        var entry = UBXEntry(core: core, handler: handler)
        message.accept(&entry)
    }

    /// Tells the assembler when the input beginning at `start` began to arrive: a sentence or
    /// frame in the chunk began in it; one from the framer's carry began earlier.
    @inline(__always)
    private static func noteArrival(of start: UnsafeRawPointer, _ core: CorePointer) {
        if core.pointee.chunk?.contains(start) ?? true {
            core.pointee.assembler.sentenceReceivedAt = core.pointee.chunkReceivedAt
        } else {
            core.pointee.assembler.sentenceReceivedAt = core.pointee.partialReceivedAt ?? core.pointee.chunkReceivedAt
            core.pointee.partialReceivedAt = nil
        }
    }

    /// Takes each decoded UBX message to the assembler, as its own type.
    private struct UBXEntry: UBXMessageVisitor {
        let core: CorePointer
        let handler: Handler

        mutating func visit<Message: UBXMessageType>(_ message: Message) {
            var sink = Sink(core: core, handler: handler)
            core.pointee.assembler.add(ubx: message, into: &sink)
        }
    }

    /// Takes each decoded sentence straight to the assembler, as its own type.
    private struct Feed: DecodedSentenceVisitor {
        let core: CorePointer
        let raw: RawSentence
        let handler: Handler

        mutating func visit<Sentence: SentenceType>(_ sentence: Sentence, malformed: [MalformedField]) {
            // Counted and handed out, with its malformed fields, before it reaches the assembler.
            core.pointee.statistics.countSentence(raw.address, length: raw.length, decoded: true)
            handler(.sentence(raw))
            if !malformed.isEmpty { report(malformed) }
            var sink = Sink(core: core, handler: handler)
            core.pointee.assembler.add(sentence, into: &sink)
        }

        private func report(_ malformed: [MalformedField]) {
            for reject in NMEADecoder.rejects(malformed, in: raw) {
                core.pointee.statistics.count(reject)
                handler(.rejected(reject))
            }
        }
    }

    /// One reject per malformed field: it covers the field's bytes, and shows its sentence.
    private static func rejects(_ malformed: [MalformedField], in raw: RawSentence) -> [RejectedInput] {
        malformed.map { problem in
            RejectedInput(
                reason: .malformedField, byteCount: problem.fieldIndex < raw.fieldCount ? raw[problem.fieldIndex].count : 0,
                bytes: raw.bytes, address: raw.address.text, fieldIndex: problem.fieldIndex, detail: problem.error.description)
        }
    }

    /// One reject per field of a UBX message that could not be read: it shows the frame, and
    /// the field's byte offset in the payload.
    private static func rejects(_ malformed: [MalformedField], in frame: UBXFrame) -> [RejectedInput] {
        // The frame's first bytes, copied once for all its rejects.
        let bytes = Array(UnsafeBufferPointer(start: frame.base, count: min(frame.length, 256)))
        return malformed.map { problem in
            RejectedInput(reason: .malformedField, byteCount: 0, bytes: bytes,
                          address: frame.kind.description, fieldIndex: problem.fieldIndex, detail: problem.error.description)
        }
    }

    /// Takes what the assembler completes to the caller's handler, counted.
    private struct Sink: EpochSink {
        let core: CorePointer
        let handler: Handler

        mutating func epoch(_ epoch: borrowing Epoch, viewCount: Int) {
            if epoch.hasFix { core.pointee.statistics.fixes += 1 }
            core.pointee.statistics.satelliteViews += viewCount
            let event = Event.epoch(copy epoch)
            handler(event)
        }

        mutating func rejected(_ reject: consuming RejectedInput) {
            core.pointee.statistics.count(reject)
            handler(.rejected(reject))
        }
    }
}
