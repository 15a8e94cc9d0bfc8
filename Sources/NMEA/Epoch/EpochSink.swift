/// Where an ``EpochAssembler`` hands what it completes.
///
/// The decoder is its own sink, so an epoch goes from the assembler to the caller's handler
/// without being wrapped in an ``EpochAssembler/Output`` (held in a heap box) on the way; the
/// public closure API wraps a closure in a ``ClosureEpochSink``.
protocol EpochSink {
    /// A completed epoch: its sky, then its fix; and how many views it has, told apart so that
    /// counting them copies nothing out of the epoch's storage (``Epoch/hasFix`` copies nothing
    /// either).
    mutating func epoch(_ epoch: borrowing Epoch, viewCount: Int)
    /// A GSV group dropped with parts missing.
    mutating func rejected(_ reject: consuming RejectedInput)
}

/// An ``EpochSink`` that calls a closure with each ``EpochAssembler/Output``.
struct ClosureEpochSink: EpochSink {
    let emit: (EpochAssembler.Output) -> Void

    mutating func epoch(_ epoch: borrowing Epoch, viewCount: Int) { emit(.epoch(copy epoch)) }
    mutating func rejected(_ reject: consuming RejectedInput) { emit(.rejected(reject)) }
}
