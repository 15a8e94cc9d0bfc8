import Testing
@testable import NMEA
import TestSupport

@Suite("World Magnetic Model", .mayBlock)
struct MagneticModelTests {
    /// Declinations of WMM2025 at sea level, as NOAA's coefficients give them (computed with
    /// pygeomag, an independent implementation, to 1e-9 degree).
    @Test("WMM2025's declination, against an independent implementation, across the globe and the model's years",
          arguments: [
              (52.0116, 4.36, 2026.9, 2.615675142582712),
              (-37.78, 175.31, 2026.9, 20.986225921020903),
              (80.0, 0.0, 2025.0, 1.2814821162481151),
              (0.0, 120.0, 2025.0, -0.15827414378105994),
              (-80.0, 240.0, 2025.0, 68.77538517527384),
              (89.0, -100.0, 2029.5, -70.6076857876591),
              (-45.0, -60.0, 2028.0, -1.5639487802550396),
          ])
    func declination(latitude: Double, longitude: Double, year: Double, expected: Double) throws {
        let declination = try #require(MagneticModel.wmm2025.declination(latitude: latitude, longitude: longitude, year: year))
        #expect(abs(declination - expected) < 1e-6, "\(declination)")
    }

    @Test("none outside the model's years (2025.0 to 2030.0), at a pole, or for a position that is not one")
    func outside() {
        let model = MagneticModel.wmm2025
        #expect(model.declination(latitude: 52, longitude: 4, year: 2024.99) == nil)
        #expect(model.declination(latitude: 52, longitude: 4, year: 2030.0) == nil)
        #expect(model.declination(latitude: 90, longitude: 0, year: 2026) == nil)
        #expect(model.declination(latitude: .nan, longitude: 0, year: 2026) == nil)
    }

    @Test("a decimal year: 2026.0 at its first instant, halfway through on 2 July at noon")
    func decimalYear() throws {
        let start = UTCTime(date: try #require(CalendarDate(year: 2026, month: 1, day: 1)), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: 0))
        #expect(start.decimalYear == 2026.0)
        let middle = UTCTime(date: try #require(CalendarDate(year: 2026, month: 7, day: 2)),
                             timeOfDay: TimeOfDay(nanosecondsSinceMidnight: 12 * 3_600_000_000_000))
        #expect(abs(middle.decimalYear - 2026.5) < 1e-9)
    }

    @Test("a fix's variation: the receiver's when it sent one; the model's when it sent none or 0.0; none for a log outside the model's years")
    func fixVariation() throws {
        func fix(date: String, variation: String) throws -> Fix {
            let text = nmea("GPRMC,120000.00,A,5200.6960,N,00421.6011,E,10.0,90.0,\(date),\(variation),A")
            return try #require(decode(text).fixes.first)
        }
        let told = try fix(date: "251126", variation: "3.5,W")
        #expect(told.magneticVariation == -3.5)
        #expect(told.magneticTrack == 93.5)
        let none = try fix(date: "251126", variation: ",")
        let model = try #require(none.magneticVariation)
        #expect(abs(model - 2.6) < 0.1, "Delft, late 2026: about 2.6 degrees east, got \(model)")
        #expect(abs(try #require(none.magneticTrack) - (90 - model)) < 1e-9)
        let zero = try fix(date: "251126", variation: "0.0,E")
        #expect(zero.magneticVariation == model, "0.0 is a receiver's 'unknown'")
        let old = try fix(date: "251114", variation: ",")
        #expect(old.magneticVariation == nil && old.magneticTrack == nil, "2014: outside WMM2025's years")
    }
}
