import NMEA

/// gpsd's JSON reports (`TPV`, `SKY`), with gpsd's field names and units.
///
/// Numbers are in fixed point: degrees to 9 decimals (0.1 mm), metres and m/s to 3,
/// course to 4, dilutions to 2. A field is left out when its value is unknown, as gpsd does.
public enum GPSDJSON {
    /// Writes `fix` as a gpsd `TPV` object: `class`, `mode`, `status` (when not a plain fix),
    /// `time`, `leapseconds` (when known), `ept` (seconds), `lat`, `lon` (degrees), `altHAE`,
    /// `altMSL`, `alt` (the same as `altMSL`, as gpsd still sends it for older clients), `epx`,
    /// `epy`, `epv` (metres), `geoidSep` (metres), `speed`, `climb` (m/s), `track`, `magtrack`,
    /// `magvar` (degrees), `epd` (degrees), `eps`, `epc` (m/s), `eph`, `sep` (metres), `dgpsAge`
    /// (seconds since the last differential correction), `dgpsSta` (the reference station), and
    /// from a UBX receiver `ecefx`, `ecefy`, `ecefz`, `ecefpAcc` (metres), `ecefvx`, `ecefvy`,
    /// `ecefvz`, `ecefvAcc` (m/s).
    /// The `ep…` and `sep` fields are the fix's ``Fix/errorEstimates``, with gpsd's decimals.
    /// `device`, when given, follows `class`, as gpsd's server sends it; `source`, when given,
    /// follows it: the receiver a merged device's fix came from.
    ///
    /// Two fields gpsd does not send, which its clients pass over (libgps skips unknown keys,
    /// Python's `gps` keeps them): `source`, and `integrity`, the names of the integrity checks
    /// the fix failed (``Fix/integrity``), left out when it failed none.
    public static func writeTPV(_ fix: Fix, device: String? = nil, source: String? = nil, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.asciiString("class", "TPV")
        if let device { writer.string("device", device) }
        if let source { writer.string("source", source) }
        writer.integer("mode", fix.mode.rawValue)
        if let status = fix.gpsdStatus, status != 1, fix.mode >= .twoD { writer.integer("status", status) }
        let estimates = fix.errorEstimates
        if let time = fix.time {
            writer.time("time", time)
            if let leapSeconds = fix.leapSeconds { writer.integer("leapseconds", leapSeconds) }
            writer.number("ept", estimates.time, decimals: 3)
        }
        writer.number("lat", fix.latitude, decimals: 9)
        writer.number("lon", fix.longitude, decimals: 9)
        writer.number("altHAE", fix.altitudeHAE, decimals: 3)
        writer.number("altMSL", fix.altitudeMSL, decimals: 3)
        // gpsd's deprecated `alt`, the same altitude: older libgps and Python's `gps` module
        // read it (their `fix.altitude`).
        writer.number("alt", fix.altitudeMSL, decimals: 3)
        writer.number("epx", estimates.longitude, decimals: 3)
        writer.number("epy", estimates.latitude, decimals: 3)
        writer.number("epv", estimates.vertical, decimals: 3)
        writer.number("geoidSep", fix.geoidSeparation, decimals: 3)
        writer.number("speed", fix.speed, decimals: 3)
        writer.number("track", fix.track, decimals: 4)
        writer.number("magtrack", fix.magneticTrack, decimals: 4)
        writer.number("climb", fix.climb, decimals: 3)
        writer.number("magvar", fix.magneticVariation, decimals: 1)
        writer.number("epd", estimates.track, decimals: 4)
        writer.number("eps", estimates.speed, decimals: 2)
        writer.number("epc", estimates.climb, decimals: 2)
        writer.number("eph", estimates.horizontal, decimals: 3)
        writer.number("sep", estimates.spherical, decimals: 3)
        if let ecef = fix.ecef {
            writer.number("ecefx", ecef.x, decimals: 4)
            writer.number("ecefy", ecef.y, decimals: 4)
            writer.number("ecefz", ecef.z, decimals: 4)
            writer.number("ecefvx", ecef.vx, decimals: 2)
            writer.number("ecefvy", ecef.vy, decimals: 2)
            writer.number("ecefvz", ecef.vz, decimals: 2)
            writer.number("ecefpAcc", ecef.positionAccuracy, decimals: 4)
            writer.number("ecefvAcc", ecef.velocityAccuracy, decimals: 4)
        }
        writer.number("dgpsAge", fix.differentialAge, decimals: 1)
        if let station = fix.differentialStation { writer.integer("dgpsSta", station) }
        if !fix.integrity.isEmpty {
            writer.beginArray("integrity")
            for kind in fix.integrity.kinds { writer.string(kind.description) }
            writer.endArray()
        }
        writer.endObject()
    }

    /// Writes `sky` as a gpsd `SKY` object: `class`, `time`, its dilutions of precision (`vdop`,
    /// `hdop`, `pdop`: the receiver's, else those of ``Sky/geometry``; `xdop`, `ydop`, `tdop`,
    /// `gdop`: the receiver's (``Sky/dilutions``), else from ``Sky/geometry`` when the sky has
    /// the satellites for it), `nSat`, `uSat`, and `satellites` with `PRN`, `gnssid`, `svid`, `sigid`
    /// (gpsd's numbering, ``sigid(nmeaSignalID:constellation:)``, left out when 0 as gpsd does),
    /// `el`, `az` (degrees), `ss` (dB-Hz) and `used`, and from a UBX receiver `prRes` (metres),
    /// `qual` and `health` (left out when unknown, as gpsd does). `device`, when given, follows
    /// `class`.
    ///
    /// A sky with no views has no `nSat` and no `satellites`, and its `uSat` is the receiver's
    /// own count, left out when 0: as gpsd reports an epoch without GSV, and as libgps reads it
    /// (the dilutions taken, the satellites it had kept). `source`, when given, follows
    /// `device`: the receiver a merged device's sky came from (as in ``writeTPV(_:device:source:to:)``).
    public static func writeSKY(_ sky: Sky, device: String? = nil, source: String? = nil, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.asciiString("class", "SKY")
        if let device { writer.string("device", device) }
        if let source { writer.string("source", source) }
        if let time = sky.time { writer.time("time", time) }
        // The receiver's dilutions; the geometry's where it gave none, as gpsd fills them in.
        let geometry = sky.dilutions ?? (sky.views.isEmpty ? nil : sky.geometry)
        writer.number("vdop", sky.vdop ?? geometry?.vertical, decimals: 2)
        writer.number("hdop", sky.hdop ?? geometry?.horizontal, decimals: 2)
        writer.number("pdop", sky.pdop ?? geometry?.position, decimals: 2)
        if let geometry {
            writer.number("xdop", geometry.x, decimals: 2)
            writer.number("ydop", geometry.y, decimals: 2)
            writer.number("tdop", geometry.time, decimals: 2)
            writer.number("gdop", geometry.geometric, decimals: 2)
        }
        guard !sky.views.isEmpty else {
            if let used = sky.satellitesUsed, used > 0 { writer.integer("uSat", used) }
            writer.endObject()
            return
        }
        writer.integer("nSat", sky.satelliteCount)
        writer.integer("uSat", sky.usedCount)
        writer.beginArray("satellites")
        for view in sky.views {
            for satellite in view.satellites {
                writer.beginObject()
                if let id = satellite.id {
                    writer.integer("PRN", id.gpsdPRN)
                    writer.integer("gnssid", id.constellation.gnssID)
                    writer.integer("svid", id.svid)
                } else {
                    writer.integer("PRN", satellite.nmeaID)
                }
                if let sigid = satellite.signal {
                    if sigid != 0 { writer.integer("sigid", sigid) }
                } else if let signal = view.signalID, let constellation = satellite.id?.constellation ?? view.talker.constellation,
                   let sigid = sigid(nmeaSignalID: signal, constellation: constellation), sigid != 0 {
                    writer.integer("sigid", sigid)
                }
                writer.number("el", satellite.elevation, decimals: 1)
                writer.number("az", satellite.azimuth, decimals: 1)
                writer.number("ss", satellite.snr, decimals: 1)
                writer.bool("used", satellite.used)
                writer.number("prRes", satellite.pseudorangeResidual, decimals: 1)
                if let quality = satellite.quality { writer.integer("qual", quality) }
                if let health = satellite.health, health != .unknown { writer.integer("health", Int(health.rawValue)) }
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
    }

    /// Writes the receiver's pseudorange noise statistics (GST) of `fix` as a gpsd `GST`
    /// object: `class`, `device`, `time`, `rms`, `major`, `minor`, `orient` (degrees), `lat`,
    /// `lon`, `alt` (metres, one standard deviation). Returns `false`, writing nothing, when the
    /// fix has none (no GST, or one that gave only the three deviations a GBS also gives).
    @discardableResult
    public static func writeGST(_ fix: Fix, device: String? = nil, to writer: inout JSONWriter) -> Bool {
        guard let errors = fix.errors,
              errors.rangeRMS != nil || errors.semiMajor != nil || errors.semiMinor != nil || errors.orientation != nil
        else { return false }
        writer.beginObject()
        writer.asciiString("class", "GST")
        if let device { writer.string("device", device) }
        if let time = fix.time { writer.time("time", time) }
        writer.number("rms", errors.rangeRMS, decimals: 3)
        writer.number("major", errors.semiMajor, decimals: 3)
        writer.number("minor", errors.semiMinor, decimals: 3)
        writer.number("orient", errors.orientation, decimals: 3)
        writer.number("lat", errors.latitude, decimals: 3)
        writer.number("lon", errors.longitude, decimals: 3)
        writer.number("alt", errors.altitude, decimals: 3)
        writer.endObject()
        return true
    }

    /// Writes the true heading of `fix` (HDT) as a gpsd `ATT` object: `class`, `device`,
    /// `time`, `heading` (degrees). Returns `false`, writing nothing, when the fix has none.
    @discardableResult
    public static func writeATT(_ fix: Fix, device: String? = nil, to writer: inout JSONWriter) -> Bool {
        guard let heading = fix.heading else { return false }
        writer.beginObject()
        writer.asciiString("class", "ATT")
        if let device { writer.string("device", device) }
        if let time = fix.time { writer.time("time", time) }
        writer.number("heading", heading, decimals: 3)
        writer.endObject()
        return true
    }

    /// The class of one of gpsd's reports.
    public enum ReportClass: Sendable {
        case sky
        case tpv
        /// Pseudorange noise statistics (GST).
        case gst
        /// Attitude: the true heading (HDT).
        case att
    }

    /// Writes `epoch` as gpsd sends it: its `SKY` (when it has one), then its `TPV` (when it
    /// has a fix), then its `GST` and `ATT` (when the receiver sent GST or HDT), each object
    /// handed to `report` with its class, then `writer` reset.
    /// `writer` is reused, so that an epoch costs no allocation once it has grown. `source`, for a
    /// merged device, names the receiver in its `SKY` and `TPV`.
    public static func write(_ epoch: Epoch, device: String? = nil, source: String? = nil, reusing writer: inout JSONWriter,
                             _ report: (ReportClass, JSONWriter) -> Void) {
        if let sky = epoch.sky {
            writer.reset()
            writeSKY(sky, device: device, source: source, to: &writer)
            report(.sky, writer)
        }
        epoch.withFix { fix in
            writer.reset()
            writeTPV(fix, device: device, source: source, to: &writer)
            report(.tpv, writer)
            writer.reset()
            if writeGST(fix, device: device, to: &writer) { report(.gst, writer) }
            writer.reset()
            if writeATT(fix, device: device, to: &writer) { report(.att, writer) }
        }
        writer.reset()
    }

    /// Writes one view as a `SKY` object of its own (as the `Sky` overload does).
    public static func writeSKY(_ view: SatelliteView, device: String? = nil, to writer: inout JSONWriter) {
        writeSKY(Sky(views: [view]), device: device, to: &writer)
    }

    /// `fix` as one line of gpsd JSON, without the newline.
    public static func tpv(_ fix: Fix) -> String {
        var writer = JSONWriter()
        writeTPV(fix, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `view` as one line of gpsd JSON, without the newline.
    public static func sky(_ view: SatelliteView) -> String {
        var writer = JSONWriter()
        writeSKY(view, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
