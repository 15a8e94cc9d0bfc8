/// ZDA: UTC time and date with a four-digit year. Every property is `nil` when its field is empty.
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
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        time = try raw.time(1)
        let day = try raw.integer(2), month = try raw.integer(3), year = try raw.integer(4)
        if let day, let month, let year {
            guard raw[4].count == 4 else {
                throw MalformedSentence(fieldIndex: 4, error: FieldError(expected: "a four-digit year"))
            }
            guard let date = CalendarDate(year: year, month: month, day: day) else {
                throw MalformedSentence(fieldIndex: 2, error: FieldError(expected: "a day that exists"))
            }
            self.date = date
        }
        localZoneHours = try raw.read(5) { field throws(FieldError) in
            guard !field.isEmpty else { return nil }
            guard let value = parseDecimal(field), value == value.rounded(), abs(value) <= 13 else {
                throw FieldError(expected: "a zone offset of -13 to 13 hours")
            }
            return Int(value)
        }
        localZoneMinutes = try raw.integer(6)
    }
}

extension ZDA: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("Z", "D", "A") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .zda(self) }

    func apply(to epoch: inout EpochAccumulator) {
        if let date { epoch.dates.noteFullDate(date, at: time) }
        epoch.noteTime(time)
    }
}
