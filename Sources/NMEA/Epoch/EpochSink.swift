/// Where an ``EpochAssembler`` hands what it completes.
///
/// The decoder is its own sink, so an epoch goes from the assembler to the caller's handler
/// without being wrapped in an ``EpochAssembler/Output`` (held in a heap box) on the way; the
/// public closure API wraps a closure in a ``ClosureEpochSink``.
protocol EpochSink {
    /// A completed epoch: its sky, then its fix; whether it has a fix and how many views, told
    /// apart so that counting them reads nothing back from the epoch's storage.
    mutating func epoch(_ epoch: borrowing Epoch, hasFix: Bool, viewCount: Int)
    /// A GSV group dropped with parts missing.
    mutating func rejected(_ reject: consuming RejectedInput)
}

/// An ``EpochSink`` that calls a closure with each ``EpochAssembler/Output``.
struct ClosureEpochSink: EpochSink {
    let emit: (EpochAssembler.Output) -> Void

    mutating func epoch(_ epoch: borrowing Epoch, hasFix: Bool, viewCount: Int) { emit(.epoch(copy epoch)) }
    mutating func rejected(_ reject: consuming RejectedInput) { emit(.rejected(reject)) }
}
