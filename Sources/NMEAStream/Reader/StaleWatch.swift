/// The rules of a reader's watchdog for a silent source (``StaleLimit``), apart from the timer
/// that asks them: when the source was last heard, its cycle as measured, and whether it is
/// silent now. Times are nanoseconds of a monotonic clock.
///
/// Nothing runs per read but ``heard(at:)``, a store: the reader's timer asks ``check(at:fixes:)``
/// at ``deadline`` and is set again to the deadline it returns, so that a source that keeps
/// sending costs one check per allowance (every 5 s at 1 Hz), not one per read.
package struct StaleWatch: Sendable {
    /// How many of its cycles a receiver may miss under ``StaleLimit/automatic``.
    package static let cyclesAllowed = 5.0
    /// The shortest automatic allowance, in seconds: a 10 Hz receiver's five cycles are half a
    /// second, shorter than a USB bridge or a network may hold bytes back.
    package static let shortestAutomatic = 2.0
    /// The automatic allowance before a cycle is measured, in seconds.
    package static let untilCycleKnown = 10.0

    let limit: StaleLimit
    /// When bytes last came (or the watch was armed).
    private var lastHeard: UInt64 = 0
    /// The receiver's cycle in seconds; `nil` before it is measured.
    private(set) var cycle: Double?
    /// The fixes counted, and when, at the last check: the cycle is measured between checks.
    private var fixesAtCheck = 0
    private var checkedAt: UInt64 = 0
    private(set) var isArmed = false

    package init(limit: StaleLimit) { self.limit = limit }

    /// How long the source may stay silent now, in seconds; `nil` when it may for ever.
    package var allowance: Double? {
        switch limit {
        case .never: nil
        case .after(let duration): duration.inSeconds
        case .automatic: cycle.map { max(Self.shortestAutomatic, Self.cyclesAllowed * $0) } ?? Self.untilCycleKnown
        }
    }

    /// Starts counting at `now` (the source opened, or its speed was found), with `fixes`
    /// counted so far; returns the first deadline, or `nil` when there is no limit.
    package mutating func arm(at now: UInt64, fixes: Int) -> UInt64? {
        guard let allowance else { return nil }
        isArmed = true
        lastHeard = now
        checkedAt = now
        fixesAtCheck = fixes
        return now + Self.nanoseconds(allowance)
    }

    /// Stops counting (the device went away: waiting for it is no silence).
    package mutating func disarm() { isArmed = false }

    /// Bytes came at `now`.
    package mutating func heard(at now: UInt64) { lastHeard = now }

    /// What a check finds.
    package enum Verdict: Equatable, Sendable {
        /// Heard within the allowance: check again at this deadline.
        case checkAgain(at: UInt64)
        /// Silent this many seconds, past the allowance.
        case silent(seconds: Double)
        /// Not armed: nothing to check.
        case idle
    }

    /// The check at `now`, with `fixes` counted so far: measures the cycle (the time since the
    /// last check over the fixes made in it), then compares the silence with the allowance.
    package mutating func check(at now: UInt64, fixes: Int) -> Verdict {
        guard isArmed, allowance != nil else { return .idle }
        if fixes > fixesAtCheck, now > checkedAt {
            cycle = Double(now - checkedAt) / 1e9 / Double(fixes - fixesAtCheck)
        }
        fixesAtCheck = fixes
        checkedAt = now
        // With the cycle just measured.
        guard let allowed = allowance else { return .idle }
        let silence = now > lastHeard ? Double(now - lastHeard) / 1e9 : 0
        if silence >= allowed { return .silent(seconds: silence) }
        return .checkAgain(at: lastHeard + Self.nanoseconds(allowed))
    }

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}
