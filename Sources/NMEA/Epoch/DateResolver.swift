/// Turns the dates receivers send into full UTC dates.
///
/// Year rules:
/// - ZDA carries a four-digit year: it is taken as sent, and its century becomes the century
///   for later two-digit years.
/// - RMC carries a two-digit year `yy`. Before any ZDA, `yy` below 80 means 20yy and 80 or
///   above means 19yy (NMEA 0183 appeared in 1983, so no receiver reports an earlier year).
/// - GGA, GLL, GNS and GST carry only a time of day: their date is the last date seen, moved a
///   day forward when the time of day has passed midnight since then (and back when it is
///   more than 12 hours earlier than the date's own time, which happens when a sentence of the
///   old day arrives after the new date).
///
/// GPS week rollover: receivers whose firmware counts weeks in 10 bits report dates 1024 weeks
/// (19.6 years) in the past once their epoch has wrapped. nmeastream reports the date the
/// receiver sent, since a recorded log's date cannot be told from a wrapped one; set
/// ``Configuration/rolloverPivot`` to a date before which no real fix can be (the day you
/// deploy, say), and dates before it are moved forward by 1024 weeks until they are not.
public struct DateResolver: Sendable, Hashable {
    /// How dates are resolved.
    public struct Configuration: Sendable, Hashable {
        /// Dates earlier than this are moved forward by 1024-week steps; `nil` (the default)
        /// reports dates as sent.
        public var rolloverPivot: CalendarDate?

        /// Creates a configuration.
        public init(rolloverPivot: CalendarDate? = nil) { self.rolloverPivot = rolloverPivot }
    }

    /// The configuration in force.
    public var configuration: Configuration
    private var century: Int?
    private var anchor: (date: CalendarDate, time: TimeOfDay)?

    /// Creates a resolver that knows no date yet.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The most recent full date seen, with the time of day it was sent with.
    public var lastDate: CalendarDate? { anchor?.date }

    /// Records an RMC date; returns the full date, or `nil` when the day does not exist.
    @discardableResult
    public mutating func noteTwoDigitDate(_ date: TwoDigitDate, at time: TimeOfDay?) -> CalendarDate? {
        let century = self.century ?? (date.yearInCentury < 80 ? 20 : 19)
        guard let full = CalendarDate(year: century * 100 + date.yearInCentury, month: date.month, day: date.day) else { return nil }
        let corrected = correctedForRollover(full)
        anchor = (corrected, time ?? anchor?.time ?? TimeOfDay(nanosecondsSinceMidnight: 0))
        return corrected
    }

    /// Records a ZDA date (four-digit year); its century applies to later two-digit years.
    public mutating func noteFullDate(_ date: CalendarDate, at time: TimeOfDay?) {
        century = date.year / 100
        anchor = (correctedForRollover(date), time ?? anchor?.time ?? TimeOfDay(nanosecondsSinceMidnight: 0))
    }

    /// The full UTC time for `time` on the last date seen, or `nil` when no date is known yet.
    public func resolve(_ time: TimeOfDay) -> UTCTime? {
        guard let anchor else { return nil }
        let halfDay: Int64 = 12 * 3600 * 1_000_000_000
        let difference = time.nanosecondsSinceMidnight - anchor.time.nanosecondsSinceMidnight
        var date = anchor.date
        if difference < -halfDay { date = date.adding(days: 1) }
        if difference > halfDay { date = date.adding(days: -1) }
        return UTCTime(date: date, timeOfDay: time)
    }

    private func correctedForRollover(_ date: CalendarDate) -> CalendarDate {
        guard let pivot = configuration.rolloverPivot else { return date }
        var date = date
        while date < pivot { date = date.adding(days: 1024 * 7) }
        return date
    }

    /// Equal when configuration, century and last date agree.
    public static func == (lhs: DateResolver, rhs: DateResolver) -> Bool {
        lhs.configuration == rhs.configuration && lhs.century == rhs.century
            && lhs.anchor?.date == rhs.anchor?.date && lhs.anchor?.time == rhs.anchor?.time
    }

    /// Hashes configuration, century and last date.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(configuration)
        hasher.combine(century)
        hasher.combine(anchor?.date)
        hasher.combine(anchor?.time)
    }
}
