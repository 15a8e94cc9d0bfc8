import Testing
@testable import NMEA
import TestSupport

/// The compact storage a fix is made of behaves as the plain values it stands for.
@Suite("Compact storage", .mayBlock)
struct CompactStorageTests {
    struct Holder: Hashable {
        @CompactDouble var value: Double? = nil
    }

    @Test("a compact double holds what an optional does; NaN reads back nil; equality and hash are the optional's")
    func compactDouble() {
        var holder = Holder()
        #expect(holder.value == nil)
        holder.value = 12.5
        #expect(holder.value == 12.5)
        holder.value = -0.0
        #expect(holder.value == 0 && holder.value?.sign == .minus)
        holder.value = .infinity
        #expect(holder.value == .infinity)
        holder.value = .nan
        #expect(holder.value == nil)
        holder.value = nil
        #expect(holder == Holder())
        #expect(Holder(value: 0.0) == Holder(value: -0.0))
        #expect(Holder(value: 0.0).hashValue == Holder(value: -0.0).hashValue)
        #expect(Holder(value: 1) != Holder(value: nil))
        #expect(Holder(value: .nan) == Holder(value: nil))
        #expect(Set([Holder(value: 1), Holder(value: 1), Holder(value: nil), Holder(value: .nan)]).count == 2)
        #expect(MemoryLayout<Holder>.size == 8)
    }

    @Test("a calendar date in one word: its parts, its days, its order, and what it cannot hold")
    func calendarDate() throws {
        let date = try #require(CalendarDate(year: 2026, month: 11, day: 26))
        #expect(date.year == 2026 && date.month == 11 && date.day == 26 && date.description == "2026-11-26")
        #expect(CalendarDate(daysSince1970: date.daysSince1970) == date)
        #expect(CalendarDate(daysSince1970: 0) == CalendarDate(year: 1970, month: 1, day: 1))
        #expect(CalendarDate(daysSince1970: -1) == CalendarDate(year: 1969, month: 12, day: 31))
        // Every day over four centuries round-trips, and the order of the words is the order of the days.
        var previous: CalendarDate?
        for days in stride(from: -100_000, through: 100_000, by: 7) {
            let day = CalendarDate(daysSince1970: days)
            #expect(day.daysSince1970 == days)
            if let previous { #expect(previous < day) }
            previous = day
        }
        #expect(try #require(CalendarDate(year: -1, month: 12, day: 31)) < date)
        #expect(CalendarDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 40_000, month: 1, day: 1) == nil)
        var changed = date
        changed.month = 2
        changed.year = 2028
        changed.day = 29
        #expect(changed == CalendarDate(year: 2028, month: 2, day: 29))
        #expect(MemoryLayout<CalendarDate>.size == 4 && MemoryLayout<UTCTime>.size == 16)
    }
}
