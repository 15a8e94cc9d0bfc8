import NMEA
import NMEARendering
import Testing
import TestSupport

/// A fix written as GGA (what an NTRIP client tells a network caster), read back by the
/// project's own decoder.
@Suite("GGA rendering", .mayBlock)
struct GGARenderingTests {
    /// The fix the decoder makes of `sentence` alone.
    static func decoded(_ sentence: String) -> Fix? {
        let decoder = NMEADecoder()
        var fix: Fix?
        decoder.feed(Array(sentence.utf8)) { if let value = $0.fix { fix = value } }
        decoder.finish { if let value = $0.fix { fix = value } }
        return fix
    }

    @Test("a fix: every field as NMEA writes it, the checksum right; read back, the same time, position (to 1e-7 minute), altitude, quality and satellites")
    func roundTrip() throws {
        let original = try #require(Self.decoded(SyntheticEpochs.sentence("GPGGA,123519.25,4807.0381234,S,01131.0001234,W,4,12,0.7,545.412,M,46.912,M,1.5,0023")))
        let written = try #require(GGA.sentence(for: original))
        #expect(written.hasPrefix("$GPGGA,123519.25,4807.0381234,S,01131.0001234,W,4,12,0.7,545.412,M,46.912,M,1.5,23*"), "\(written)")
        #expect(written.hasSuffix("\r\n"))
        #expect(written == SyntheticEpochs.sentence(String(written.dropFirst().prefix { $0 != "*" })), "the checksum")
        let back = try #require(Self.decoded(written))
        #expect(back.latitude == original.latitude && back.longitude == original.longitude)
        #expect(back.timeOfDay == original.timeOfDay && back.quality == .rtkFixed && back.satellitesUsed == 12)
        #expect(back.altitudeMSL == 545.412 && back.geoidSeparation == 46.912 && back.differentialAge == 1.5 && back.differentialStation == 23)
    }

    @Test("edges: a minute that rounds up to 60 carries into the degree; zero padding; no time; a fix with no position gives none")
    func edges() throws {
        var fix = Fix()
        fix.latitude = 51.99999999999
        fix.longitude = 4.5
        fix.mode = .threeD
        let written = try #require(GGA.sentence(for: fix))
        #expect(written.hasPrefix("$GPGGA,,5200.0000000,N,00430.0000000,E,1,,,,M,,M,,*"), "\(written)")
        var nothing = Fix()
        nothing.mode = .threeD
        #expect(GGA.sentence(for: nothing) == nil)
        fix.mode = .noFix
        #expect(GGA.sentence(for: fix)?.contains(",E,0,") == true, "no fix: quality 0")
    }
}
