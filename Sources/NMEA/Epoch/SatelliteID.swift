/// A satellite's identity: its constellation and its number within it.
public struct SatelliteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The constellation.
    public var constellation: Constellation
    /// The satellite's number within its constellation (u-blox / gpsd `svid`): GPS PRN 1-32,
    /// SBAS PRN 120-158, GLONASS slot 1-32, Galileo 1-36, BeiDou 1-63, QZSS 1-10, NavIC 1-14.
    public var svid: Int

    /// Creates an identity.
    public init(constellation: Constellation, svid: Int) {
        self.constellation = constellation
        self.svid = svid
    }

    /// Maps an NMEA satellite number to an identity.
    ///
    /// NMEA numbers depend on the talker: `GP`/`GN` use the extended NMEA ranges (1-32 GPS,
    /// 33-64 SBAS, 65-96 GLONASS, 193-200 QZSS, 201-263 and 401-463 BeiDou, 301-336 Galileo);
    /// the constellation talkers (`GL`, `GA`, `GB`/`BD`, `GQ`/`QZ`, `GI`) number from 1 within
    /// their own system, and some firmware uses the extended ranges there too.
    /// - Parameters:
    ///   - nmeaID: the number as the sentence gives it.
    ///   - constellation: the constellation the talker or the NMEA 4.10 system ID names, or
    ///     `nil` for `GP`/`GN` ranges.
    /// - Returns: the identity, or `nil` for a number no range explains.
    @inline(__always)
    public init?(nmeaID n: Int, constellation: Constellation?) {
        switch constellation {
        case .glonass?:
            switch n {
            case 1...32: self.init(constellation: .glonass, svid: n)
            case 33...64: self.init(constellation: .sbas, svid: n + 87)
            case 65...96: self.init(constellation: .glonass, svid: n - 64)
            default: return nil
            }
        case .galileo?:
            switch n {
            case 1...36: self.init(constellation: .galileo, svid: n)
            case 301...336: self.init(constellation: .galileo, svid: n - 300)
            default: return nil
            }
        case .beidou?:
            switch n {
            case 1...63: self.init(constellation: .beidou, svid: n)
            case 201...263: self.init(constellation: .beidou, svid: n - 200)
            case 401...463: self.init(constellation: .beidou, svid: n - 400)
            default: return nil
            }
        case .qzss?:
            switch n {
            case 1...10: self.init(constellation: .qzss, svid: n)
            case 193...202: self.init(constellation: .qzss, svid: n - 192)
            default: return nil
            }
        case .navic?:
            guard (1...14).contains(n) else { return nil }
            self.init(constellation: .navic, svid: n)
        case .gps?, .sbas?, .imes?, nil:
            switch n {
            case 1...32: self.init(constellation: .gps, svid: n)
            case 33...64: self.init(constellation: .sbas, svid: n + 87)
            case 65...96: self.init(constellation: .glonass, svid: n - 64)
            case 120...158: self.init(constellation: .sbas, svid: n)
            case 173...182: self.init(constellation: .imes, svid: n - 172)
            case 193...200: self.init(constellation: .qzss, svid: n - 192)
            case 201...263: self.init(constellation: .beidou, svid: n - 200)
            case 301...336: self.init(constellation: .galileo, svid: n - 300)
            case 401...463: self.init(constellation: .beidou, svid: n - 400)
            default: return nil
            }
        }
    }

    /// The satellite's `PRN` in gpsd's JSON numbering: GPS 1-32, SBAS 33-64 (for 120-151) or
    /// 152-158, GLONASS 65-96, IMES 173-182, QZSS 193-202, Galileo 301-336, BeiDou 401-463,
    /// NavIC 501-514 (gpsd has no NavIC range; this follows its pattern).
    public var gpsdPRN: Int {
        switch constellation {
        case .gps: svid
        case .sbas: (120...151).contains(svid) ? svid - 87 : svid
        case .glonass: svid + 64
        case .imes: svid + 172
        case .qzss: svid + 192
        case .galileo: svid + 300
        case .beidou: svid + 400
        case .navic: svid + 500
        }
    }

    /// Orders by constellation, then number.
    public static func < (lhs: SatelliteID, rhs: SatelliteID) -> Bool {
        (lhs.constellation.rawValue, lhs.svid) < (rhs.constellation.rawValue, rhs.svid)
    }

    /// Such as `GPS 17`.
    public var description: String { "\(constellation) \(svid)" }
}
