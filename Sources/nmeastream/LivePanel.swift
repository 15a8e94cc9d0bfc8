import Platform
import NMEAStream

/// The `text` format on a terminal: the current fix and a satellite table, redrawn in place
/// (like gpsd's `cgps`), on the terminal's alternate screen so that the shell's screen comes
/// back at the end.
final class LivePanel {
    private var views: [String: SatelliteView] = [:]
    private var fix: Fix?
    private let title: String
    private var isOpen = false

    init(title: String) { self.title = title }

    /// Whether standard output is a terminal (where the panel replaces the line per fix).
    static var isWanted: Bool { Syscall.isTerminal(Syscall.standardOutput) }

    /// Takes a satellite view; the table shows the latest view of each constellation and signal.
    func update(_ view: SatelliteView) {
        views["\(view.talker)-\(view.signalID ?? -1)"] = view
    }

    /// Takes a fix and redraws.
    func update(_ fix: Fix, to output: BufferedOutput) {
        self.fix = fix
        if !isOpen {
            isOpen = true
            // The alternate screen, cleared.
            output.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
        }
        // As many lines as the terminal has rows (asked each time: it may have been resized),
        // the last without a line end, so that the screen never scrolls.
        let rows = Syscall.terminalSize(Syscall.standardOutput)?.rows ?? 24
        output.write("\u{1B}[H" + render(rows: rows).map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
        output.flush()
    }

    /// Leaves the alternate screen and prints the last fix as a plain line, to keep.
    func close(to output: BufferedOutput) {
        guard isOpen else { return }
        output.write("\u{1B}[?1049l")
        if let fix { output.write(FixText.line(fix) + "\n") }
        output.flush()
    }

    /// The panel's lines, at most `rows` of them: satellites that do not fit are counted on
    /// the last line instead.
    func render(rows: Int = .max) -> [String] {
        var lines = [title, ""]
        let fix = self.fix ?? Fix()
        func value(_ number: Double?, _ decimals: Int, _ unit: String) -> String {
            number.map { fixedPoint($0, decimals: decimals) + unit } ?? "-"
        }
        lines.append("Time       " + (fix.time.map { "\($0)" } ?? fix.timeOfDay.map { "\($0) (no date yet)" } ?? "-"))
        lines.append("Latitude   " + (fix.latitude.map { fixedPoint(abs($0), decimals: 7) + ($0 < 0 ? " S" : " N") } ?? "-"))
        lines.append("Longitude  " + (fix.longitude.map { fixedPoint(abs($0), decimals: 7) + ($0 < 0 ? " W" : " E") } ?? "-"))
        lines.append("Altitude   " + value(fix.altitudeMSL, 1, " m MSL") + "   " + value(fix.altitudeHAE, 1, " m HAE"))
        lines.append("Speed      " + value(fix.speed, 2, " m/s") + "   track " + value(fix.track, 1, "°")
                     + "   climb " + value(fix.climb, 2, " m/s"))
        lines.append("Mode       " + fix.mode.description + (fix.quality.map { "  \($0)" } ?? "")
                     + "   used " + (fix.satellitesUsed.map(String.init) ?? "-")
                     + "   HDOP " + value(fix.hdop, 2, "") + "  VDOP " + value(fix.vdop, 2, "") + "  PDOP " + value(fix.pdop, 2, ""))
        lines.append("")
        lines.append("GNSS      PRN  Elev  Azim   SNR  Used")
        let satellites = views.values.flatMap(\.satellites).sorted {
            ($0.id.map { "\($0.constellation)" } ?? "", $0.nmeaID) < ($1.id.map { "\($0.constellation)" } ?? "", $1.nmeaID)
        }
        let room = rows - lines.count
        let shown = satellites.count <= room ? satellites[...] : satellites.prefix(max(0, room - 1))
        for satellite in shown {
            let system = satellite.id.map { "\($0.constellation)" } ?? "?"
            let prn = satellite.id?.gpsdPRN ?? satellite.nmeaID
            lines.append(pad(system, 8) + padLeft(String(prn), 5) + padLeft(value(satellite.elevation, 0, ""), 6)
                         + padLeft(value(satellite.azimuth, 0, ""), 6) + padLeft(value(satellite.snr, 0, ""), 6)
                         + padLeft(satellite.used ? "Y" : "N", 6))
        }
        if shown.count < satellites.count, room > 0 {
            lines.append("… and \(satellites.count - shown.count) more satellites (a taller terminal shows them)")
        }
        return Array(lines.prefix(max(rows, 0)))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
