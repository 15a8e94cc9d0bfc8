/// The UBX message a satellite view came from.
enum UBXSatelliteSource: Sendable, Hashable {
    /// NAV-SAT or NAV-SVINFO: one entry per satellite, with its elevation and azimuth.
    case satellites
    /// NAV-SIG: one entry per signal, with gpsd's `sigid`, no elevation or azimuth.
    case signals
    /// Both, merged.
    case merged

    /// One view of an epoch's satellites and signals: each signal, with its satellite's
    /// elevation and azimuth, then each satellite no signal was listed for (not tracked, or
    /// tracked on no signal the receiver reports).
    static func merge(_ first: SatelliteView, _ second: SatelliteView) -> SatelliteView {
        guard let a = first.ubxSource, let b = second.ubxSource, a != b, a != .merged, b != .merged else { return second }
        let (signals, satellites) = a == .signals ? (first, second) : (second, first)
        var byID: [SatelliteID: Satellite] = [:]
        for satellite in satellites.satellites {
            if let id = satellite.id { byID[id] = satellite }
        }
        var merged = signals
        var listed = Set<SatelliteID>()
        for index in merged.satellites.indices {
            guard let id = merged.satellites[index].id, let satellite = byID[id] else { continue }
            listed.insert(id)
            merged.satellites[index].elevation = satellite.elevation
            merged.satellites[index].azimuth = satellite.azimuth
        }
        merged.satellites += satellites.satellites.filter { $0.id.map { !listed.contains($0) } ?? true }
        merged.ubxSource = .merged
        return merged
    }
}

extension UBXSatellite {
    /// The satellite as a view lists it: gpsd's `PRN` as its number, its carrier-to-noise (0
    /// when not tracked, as gpsd reports it), use, quality, health and residual.
    var satellite: Satellite {
        let id = Constellation(rawValue: Int(gnssID)).map { SatelliteID(constellation: $0, svid: Int(svID)) }
        var satellite = Satellite(id: id, nmeaID: id?.gpsdPRN ?? Int(svID), elevation: elevation, azimuth: azimuth,
                                  snr: Double(carrierToNoise), used: isUsed)
        satellite.quality = qualityIndicator
        satellite.health = health
        satellite.pseudorangeResidual = pseudorangeResidual
        return satellite
    }
}

extension NAVSIG.Signal {
    /// The signal as a view lists it, with gpsd's `sigid`.
    var satellite: Satellite {
        let id = Constellation(rawValue: Int(gnssID)).map { SatelliteID(constellation: $0, svid: Int(svID)) }
        var satellite = Satellite(id: id, nmeaID: id?.gpsdPRN ?? Int(svID), snr: Double(carrierToNoise),
                                  used: pseudorangeIsUsed)
        satellite.signal = Int(signalID)
        satellite.quality = qualityIndicator
        satellite.health = health
        satellite.pseudorangeResidual = pseudorangeResidual
        return satellite
    }
}

extension SatelliteView {
    /// The view of a UBX message's satellites.
    init(ubx source: UBXSatelliteSource, satellites: [Satellite]) {
        self.init(talker: .combined, satellites: satellites)
        ubxSource = source
    }
}
