/// NAV-TIMELS (`0x01 0x26`): the leap seconds, and the next change the receiver knows of
/// (u-blox 8 and later).
public struct NAVTIMELS: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x26)
    static let name = "NAV-TIMELS"
    static let minimumLength = 24

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// GPS time minus UTC, in seconds; `nil` unless the receiver marks it valid
    /// (`validCurrLs`).
    public var leapSeconds: Int?
    /// The change at the next leap second event (+1, -1, or 0 for none); `nil` unless the
    /// receiver marks the event valid (`validTimeToLsEvent`).
    public var nextChange: Int?
    /// Seconds until the next leap second event; `nil` likewise.
    public var secondsToChange: Int?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        leapSeconds = nil
        nextChange = nil
        secondsToChange = nil
        // Version 0 is the only one u-blox has defined.
        guard malformed.checking(payload.u1(4), at: 4, expected: "message version 0", { $0 == 0 }) != nil else { return }
        let valid = payload.u1(23) ?? 0
        if valid & 0x01 != 0 { leapSeconds = payload.i1(9).map(Int.init) }
        if valid & 0x02 != 0 {
            nextChange = malformed.checking(payload.i1(11).map(Int.init), at: 11, expected: "a change of -1, 0 or 1") { abs($0) <= 1 }
            secondsToChange = payload.i4(12).map(Int.init)
        }
    }

    func teach(_ clock: inout UBXEpochClock) {
        if let leapSeconds { clock.noteLeapSeconds(leapSeconds) }
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let leapSeconds { epoch.noteLeapSeconds(leapSeconds) }
        // An event the receiver vouches for, still to come: announced; one it does not know,
        // or none, clears the announcement.
        if let nextChange, let secondsToChange {
            epoch.noteLeapSecondChange(nextChange != 0 && secondsToChange >= 0 ? nextChange : nil)
        }
    }
}
