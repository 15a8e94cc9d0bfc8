import Testing
@testable import NMEA
import TestSupport

/// Every combination of the fix indicators a cycle can carry (GGA or GNS, RMC or GLL, GSA,
/// each with its indicator fields in every state, beside counts, DOPs and a navigational
/// status that must not matter), checked against the precedence table in `EpochAssembler`'s
/// documentation, written out again here as plainly as it reads there.
@Suite("Fix indicator precedence", .mayBlock)
struct FixIndicatorPrecedenceTests {
    /// A position sentence's own say on its position.
    enum Verdict { case valid, invalid, silent }

    /// One synthetic sentence of the cycle, and what the table needs to know of it.
    struct Part {
        var body: String
        var verdict: Verdict
        var hasPosition: Bool
        /// For GGA and GNS: whether it gives an altitude.
        var altitude: Bool?
        var latitude: Double?
    }

    static let latitudeText = ["4807.000", "4808.000"]
    static func latitude(_ index: Int) -> Double { 48 + Double(7 + index) / 60 }

    /// GGA and GNS in every state, or none.
    static func solutions() -> [Part?] {
        var parts: [Part?] = [nil]
        for quality in ["", "0", "1", "6"] {
            for count in ["00", "08"] {
                for altitude in ["", "12.5"] {
                    for position in [true, false] {
                        let verdict: Verdict = quality.isEmpty ? .silent : quality == "0" ? .invalid : .valid
                        let place = position ? "\(latitudeText[0]),N,01131.000,E" : ",,,"
                        parts.append(Part(body: "GPGGA,TIME,\(place),\(quality),\(count),0.9,\(altitude),M,46.9,M,,",
                                          verdict: verdict, hasPosition: position, altitude: !altitude.isEmpty,
                                          latitude: position ? latitude(0) : nil))
                    }
                }
            }
        }
        for modes in ["", "AN", "NN"] {
            for altitude in ["", "12.5"] {
                for position in [true, false] {
                    let verdict: Verdict = modes.isEmpty ? .silent : modes.contains("A") ? .valid : .invalid
                    let place = position ? "\(latitudeText[0]),N,01131.000,E" : ",,,"
                    parts.append(Part(body: "GNGNS,TIME,\(place),\(modes),00,0.9,\(altitude),46.9,,,V",
                                      verdict: verdict, hasPosition: position, altitude: !altitude.isEmpty,
                                      latitude: position ? latitude(0) : nil))
                }
            }
        }
        return parts
    }

    /// RMC and GLL in every state, or none.
    static func courses() -> [Part?] {
        var parts: [Part?] = [nil]
        for status in ["", "A", "V"] {
            for mode in ["", "A", "N", "E"] {
                for position in [true, false] {
                    let verdict: Verdict = status == "V" || mode == "N" ? .invalid : status.isEmpty && mode.isEmpty ? .silent : .valid
                    let place = position ? "\(latitudeText[1]),N,01131.000,E" : ",,,"
                    for navigation in ["", "V", "S"] {
                        parts.append(Part(body: "GPRMC,TIME,\(status),\(place),0.5,54.7,DATE,,,\(mode),\(navigation)",
                                          verdict: verdict, hasPosition: position, latitude: position ? latitude(1) : nil))
                    }
                    if mode != "E" {
                        parts.append(Part(body: "GPGLL,\(place),TIME,\(status),\(mode)",
                                          verdict: verdict, hasPosition: position, latitude: position ? latitude(1) : nil))
                    }
                }
            }
        }
        return parts
    }

    /// GSA in every state, or none: its fix type (`nil` for an empty field), with DOPs real or
    /// placeholders.
    static func selections() -> [(body: String, fixType: Int?)?] {
        var parts: [(body: String, fixType: Int?)?] = [nil]
        for type in [nil, 1, 2, 3] as [Int?] {
            for dops in ["1.8,0.9,1.5", "99.99,99.99,99.99"] {
                parts.append(("GPGSA,A,\(type.map(String.init) ?? ""),01,02,03,04,,,,,,,,,\(dops)", type))
            }
        }
        return parts
    }

    /// The table of `EpochAssembler`'s documentation.
    static func expectedMode(_ parts: [Part], gsa: Int?, previousThreeD: Bool) -> FixMode {
        let valid = parts.contains { $0.verdict == .valid && $0.hasPosition }
        let invalid = parts.contains { $0.verdict == .invalid || ($0.verdict == .valid && !$0.hasPosition) }
        let unmarked = parts.contains { $0.verdict == .silent && $0.hasPosition }
        if valid || (unmarked && !invalid) {
            let solutions = parts.filter { $0.altitude != nil && $0.verdict != .invalid && $0.hasPosition }
            if !solutions.isEmpty { return solutions.contains { $0.altitude == true } ? .threeD : .twoD }
            if let gsa, gsa >= 2 { return gsa == 3 ? .threeD : .twoD }
            return previousThreeD ? .threeD : .twoD
        }
        if invalid { return .noFix }
        switch gsa {
        case 1?: return .noFix
        case 2?: return .twoD
        case 3?: return .threeD
        default: return .unknown
        }
    }

    @Test("every combination of indicators gives the mode and position the precedence table says")
    func everyCombination() {
        var checked = 0
        var index = 0
        for solution in Self.solutions() {
            for course in Self.courses() {
                for selection in Self.selections() {
                    index += 1
                    let previousThreeD = index % 2 == 0
                    let parts = [solution, course].compactMap { $0 }
                    var text = ""
                    if previousThreeD {
                        text += nmea("GPZDA,115959.00,05,06,2024,,")
                        text += nmea("GPGGA,115959.00,4806.000,N,01131.000,E,1,08,0.9,10.0,M,46.9,M,,")
                    }
                    // The untimed GSA right after the ZDA that opens the cycle: it belongs to it
                    // whatever the assembler has learned of where cycles end.
                    text += nmea("GPZDA,120000.00,05,06,2024,,")
                    if let selection { text += nmea(selection.body) }
                    for part in parts {
                        text += nmea(part.body.replacingOccurrences(of: "TIME", with: "120000.00").replacingOccurrences(of: "DATE", with: "050624"))
                    }
                    let result = decode(text)
                    // The epoch's last delivery (an epoch ended early is delivered again, revised).
                    guard let fix = result.fixes.last(where: { $0.timeOfDay?.hour == 12 && $0.timeOfDay?.minute == 0 }) else {
                        Issue.record("no fix for \(parts.map(\.body)) \(selection?.body ?? "")")
                        continue
                    }
                    let mode = Self.expectedMode(parts, gsa: selection?.fixType, previousThreeD: previousThreeD)
                    let context = "\(parts.map(\.body)) \(selection?.body ?? "no GSA"), previous 3D: \(previousThreeD)"
                    #expect(fix.mode == mode, "\(context)")
                    // A fix has the position of the last sentence that counts; no fix has none.
                    let position = parts.last { $0.verdict != .invalid && $0.hasPosition }?.latitude
                    #expect(fix.latitude == (mode >= .twoD ? position : nil), "\(context)")
                    // An altitude only in 3D (or when nothing says what the mode is), and only from
                    // a GGA or GNS that counts.
                    let altitude = parts.contains { $0.altitude == true && $0.verdict != .invalid }
                    #expect((fix.altitudeMSL != nil) == ((mode == .threeD || mode == .unknown) && altitude), "\(context)")
                    // Whatever the mode, the epoch keeps its time.
                    #expect(fix.time != nil, "\(context)")
                    #expect(result.rejects.isEmpty, "\(context)")
                    checked += 1
                }
            }
        }
        #expect(checked > 30_000)
    }
}
