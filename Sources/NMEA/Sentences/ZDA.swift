/// ZDA: UTC time and date with a four-digit year. Every property is `nil` when its field is
/// empty or malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else. Day,
/// month and year make one date and fail together: with any of them bad the sentence gives
/// its time and no date. A bad time makes the sentence belong to the epoch in progress.
public struct ZDA: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of day.
    public var time: TimeOfDay?
    /// UTC date, `nil` unless day, month and year are all present.
    public var date: CalendarDate?
    /// Local zone offset hours (-13 to 13).
    public var localZoneHours: Int?
    /// Local zone offset minutes.
    public var localZoneMinutes: Int?

    /// Creates a ZDA value.
    public init(talker: Talker, time: TimeOfDay? = nil, date: CalendarDate? = nil, localZoneHours: Int? = nil,
                localZoneMinutes: Int? = nil) {
        self.talker = talker
        self.time = time
        self.date = date
        self.localZoneHours = localZoneHours
        self.localZoneMinutes = localZoneMinutes
    }

    /// Decodes `$--ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        let day = malformed.reading(try raw.integer(2))
        let month = malformed.reading(try raw.integer(3))
        let year = malformed.reading(try raw.integer(4))
        if let day, let month, let year {
            if raw[4].count != 4 {
                malformed.note(4, expected: "a four-digit year")
            } else if let date = CalendarDate(year: year, month: month, day: day) {
                self.date = date
            } else {
                malformed.note(2, expected: "a day that exists")
            }
        }
        localZoneHours = malformed.reading(try raw.read(5) { field throws(FieldError) in
            guard !field.isEmpty else { return nil }
            guard let value = parseDecimal(field), value == value.rounded(), abs(value) <= 13 else {
                throw FieldError(expected: "a zone offset of -13 to 13 hours")
            }
            return Int(value)
        })
        localZoneMinutes = malformed.reading(try raw.integer(6))
    }
}

extension ZDA: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("Z", "D", "A") }
    static var timeField: Int? { 1 }
    static var isClock: Bool { true }
    var sentence: NMEASentence { .zda(self) }

    func apply(to epoch: inout EpochAccumulator) {
        if let date { epoch.dates.noteFullDate(date, at: time) }
        epoch.noteClockTime(time)
    }
}
