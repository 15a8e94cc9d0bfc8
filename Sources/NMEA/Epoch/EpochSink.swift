/// Where an ``EpochAssembler`` hands what it completes.
///
/// The decoder is its own sink, so a fix goes from the assembler to the caller's handler
/// without being wrapped in an ``EpochAssembler/Output`` (whose fix is held in a heap box) on
/// the way; the public closure API wraps a closure in a ``ClosureEpochSink``.
protocol EpochSink {
    /// A completed epoch.
    mutating func fix(_ fix: borrowing Fix)
    /// A completed GSV group.
    mutating func satellites(_ view: consuming SatelliteView)
    /// A GSV group dropped with parts missing.
    mutating func rejected(_ reject: consuming RejectedInput)
}

/// An ``EpochSink`` that calls a closure with each ``EpochAssembler/Output``.
struct ClosureEpochSink: EpochSink {
    let emit: (EpochAssembler.Output) -> Void

    mutating func fix(_ fix: borrowing Fix) { emit(.fix(copy fix)) }
    mutating func satellites(_ view: consuming SatelliteView) { emit(.satellites(view)) }
    mutating func rejected(_ reject: consuming RejectedInput) { emit(.rejected(reject)) }
}
