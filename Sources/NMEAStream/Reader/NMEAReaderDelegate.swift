/// What an ``NMEAReader`` tells its delegates, on the reader's queue, in input order: each
/// ``NMEAReader/Event`` as a call of its own.
///
/// Every method has an empty default implementation: implement the ones you need.
///
/// A delegate is called on the reader's queue, not on yours: it must be `Sendable`, and the
/// compiler holds you to it. A main-actor type cannot conform with main-actor methods (a
/// `@MainActor` conformance is refused: its methods would run off the main actor); give it
/// `nonisolated` methods that hand what they need to the main actor, or, simpler, subscribe to
/// a ``GPSMonitor`` signal with `observeOnMainActor(next:failed:completed:)`, whose handlers
/// run on the main actor.
public protocol NMEAReaderDelegate: AnyObject, Sendable {
    /// An epoch completed: its sky, then its fix (as gpsd reports one, a `SKY` then a `TPV`).
    /// Its views and its fix follow, each in a call of its own.
    func reader(_ reader: NMEAReader, didComplete epoch: Epoch)
    /// A reporting cycle completed into a fix.
    func reader(_ reader: NMEAReader, didUpdate fix: Fix)
    /// A GSV group completed into a satellite view. An epoch's views come together, when the
    /// epoch completes, just before its fix (or, from a receiver that reports views without
    /// fixes, when the next epoch's views begin).
    func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView)
    /// A checksum-valid sentence arrived. It is borrowed from the reader's buffer: read it
    /// (or copy its ``RawSentence/text``) during the call only.
    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence)
    /// A checksum-valid u-blox UBX frame arrived. It is borrowed from the reader's buffer:
    /// decode it (``UBXMessage/decode(_:)``) or copy its ``UBXFrame/bytes`` during the call only.
    func reader(_ reader: NMEAReader, didReceive frame: UBXFrame)
    /// Input was rejected (bad checksum, garbage, a malformed field…).
    func reader(_ reader: NMEAReader, didReject input: RejectedInput)
    /// One read of the source returned these bytes, unchanged; what is decoded from them
    /// follows. They are borrowed from the reader's buffer: copy them during the call only.
    func reader(_ reader: NMEAReader, didRead bytes: UnsafeRawBufferPointer)
    /// ``GPSSource/automatic`` chose this port (before opening it).
    func reader(_ reader: NMEAReader, didChoose port: SerialPortInfo)
    /// With ``GPSSource/watch``: the device went away; the epoch in progress was delivered, and
    /// reading resumes with the next receiver plugged in (``reader(_:didChoose:)``).
    func reader(_ reader: NMEAReader, didLoseDevice path: String)
    /// With ``GPSSource/network(_:)``: connected to the peer at `endpoint` (its URL), at the
    /// start and after each interruption; for UDP, the socket is bound (and the group joined)
    /// and datagrams can come.
    func reader(_ reader: NMEAReader, didConnect endpoint: String)
    /// With ``GPSSource/network(_:)``: the peer went away or could not be reached; the epoch in
    /// progress was delivered, and the source tries again after the interruption's wait.
    func reader(_ reader: NMEAReader, didLoseConnection interruption: NetworkInterruption)
    /// ``SerialSpeed/automatic`` found the receiver's speed, in bits per second; the sentences
    /// that proved it follow.
    func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int)
    /// The line was quiet before the read that comes next: the receiver paused between two
    /// bursts, which tells the decoder where its cycle ends (``NMEADecoder/noteQuiet(_:)``). A
    /// recorder of the raw reads that means to decode them again as the reader did notes it.
    func readerDidSeeQuietLine(_ reader: NMEAReader)
    /// Everything decoded from one read of the source (a chunk of a log, what a device had
    /// sent) has been delivered: a point to flush output, or to hand on a batch.
    func readerDidFinishChunk(_ reader: NMEAReader)
    /// The source failed: it could not be opened, or the device went away. Nothing follows.
    func reader(_ reader: NMEAReader, didFailWith error: GPSError)
    /// The source ended (the end of a log). Nothing follows.
    func readerDidFinish(_ reader: NMEAReader)
}

extension NMEAReaderDelegate {
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didComplete epoch: Epoch) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didUpdate fix: Fix) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didReceive frame: UBXFrame) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didReject input: RejectedInput) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didRead bytes: UnsafeRawBufferPointer) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didChoose port: SerialPortInfo) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didLoseDevice path: String) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didConnect endpoint: String) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didLoseConnection interruption: NetworkInterruption) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int) {}
    /// Does nothing.
    public func readerDidSeeQuietLine(_ reader: NMEAReader) {}
    /// Does nothing.
    public func readerDidFinishChunk(_ reader: NMEAReader) {}
    /// Does nothing.
    public func reader(_ reader: NMEAReader, didFailWith error: GPSError) {}
    /// Does nothing.
    public func readerDidFinish(_ reader: NMEAReader) {}
}
