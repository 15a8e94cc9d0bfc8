import NMEAStream

/// The `text` format: one readable line per fix.
enum FixText {
    static func line(_ fix: Fix) -> String {
        var parts: [String] = []
        parts.append(fix.time?.description ?? fix.timeOfDay.map { "--T\($0)Z" } ?? "no-time")
        if let latitude = fix.latitude, let longitude = fix.longitude {
            parts.append(fixedPoint(latitude, decimals: 7) + " " + fixedPoint(longitude, decimals: 7))
        } else {
            parts.append("no-position")
        }
        if let altitude = fix.altitudeMSL { parts.append("alt " + fixedPoint(altitude, decimals: 1) + " m") }
        if let speed = fix.speed { parts.append("speed " + fixedPoint(speed, decimals: 2) + " m/s") }
        if let track = fix.track { parts.append("course " + fixedPoint(track, decimals: 1)) }
        parts.append(fix.mode.description)
        if let label = fix.solutionLabel { parts.append(label) }
        if let age = fix.differentialAge { parts.append("corrections " + fixedPoint(age, decimals: 1) + " s old") }
        if let used = fix.satellitesUsed { parts.append("sats \(used)") }
        if let hdop = fix.hdop { parts.append("hdop " + fixedPoint(hdop, decimals: 1)) }
        if !fix.integrity.isEmpty { parts.append("FLAGGED " + fix.integrity.description) }
        return parts.joined(separator: "  ")
    }
}
