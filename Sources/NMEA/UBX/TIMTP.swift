/// TIM-TP (`0x0D 0x01`): the time of the receiver's next time pulse (its PPS), and how far
/// off it will be: the quantization error of the pulse's edge, which a timing receiver (the
/// M8T, F9T) gives so that a time server can take it back.
///
/// It is sent ahead of the pulse it describes, so it belongs to no navigation epoch: each fix
/// carries the latest one (``Fix/timePulse``), and the time service pairs it with its pulse.
public struct TIMTP: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x0D, messageID: 0x01)
    static let name = "TIM-TP"
    static let minimumLength = 16

    /// The next pulse's time of week, in milliseconds, in the time base that ``isUTC`` says.
    public var timeOfWeek: UInt32?
    /// The fraction of a millisecond past ``timeOfWeek``, in units of 2⁻³² ms.
    public var subMillisecond: UInt32?
    /// The pulse's quantization error, picoseconds; `nil` when the receiver marks it invalid
    /// (`qErrInvalid`, protocol 27 and later).
    public var quantizationError: Int?
    /// The week of ``timeOfWeek``.
    public var week: Int?
    /// Whether the time is UTC (`timeBase` 1) rather than a GNSS time (GPS's unless
    /// ``referenceSystem`` says otherwise).
    public var isUTC: Bool
    /// The GNSS time the time is in when it is not UTC (`timeRefGnss`: 0 GPS, 1 GLONASS,
    /// 2 BeiDou, 3 Galileo).
    public var referenceSystem: UInt8?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.u4(0)
        subMillisecond = payload.u4(4)
        week = payload.u2(12).map(Int.init)
        let flags = payload.u1(14) ?? 0
        isUTC = flags & 0x01 != 0
        referenceSystem = payload.u1(15).map { $0 & 0x0F }
        quantizationError = flags & 0x10 != 0 ? nil : payload.i4(8).map(Int.init)
    }

    /// The pulse's UTC second, with `leapSeconds` to take off a GPS time (Galileo's is GPS's
    /// too); `nil` for another GNSS time base, or a message cut short.
    func pulse(leapSeconds: Int) -> TimePulse? {
        guard let timeOfWeek, let week, isUTC || referenceSystem == 0 || referenceSystem == 3 else { return nil }
        let gps = GPSTime(week: week, timeOfWeek: timeOfWeek, fraction: nil)
        let second = gps.utc(leapSeconds: isUTC ? 0 : leapSeconds).posixTime
        // A pulse is on the second; a time a millisecond off is none the receiver sends.
        guard second.nanoseconds == 0 else { return nil }
        return TimePulse(second: second.seconds, quantizationError: quantizationError)
    }

    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.noteTimePulse(self)
    }
}

/// A receiver's next time pulse (its PPS), as TIM-TP announces it.
public struct TimePulse: Sendable, Hashable {
    /// The UTC second the pulse begins, since 1970.
    public var second: Int64
    /// How far off the pulse's edge will be, picoseconds (its quantization error: the
    /// receiver's clock ticks in steps of some nanoseconds); `nil` when the receiver said it
    /// is not known.
    public var quantizationError: Int?

    /// A pulse.
    public init(second: Int64, quantizationError: Int?) {
        self.second = second
        self.quantizationError = quantizationError
    }
}
