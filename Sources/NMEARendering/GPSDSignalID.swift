import NMEA

extension GPSDJSON {
    /// gpsd's `sigid` for a signal a GSV group reports (`nmeaSignalID`, its NMEA 4.11 signal
    /// ID) from a satellite of `constellation`: gpsd numbers signals as u-blox does, not as
    /// NMEA ("u-blox, not NMEA", `gpsd_json(5)`), and its clients read them so (cgps, and
    /// gpsrinex for its observation codes). `nil` for a signal u-blox has no number for (GPS
    /// L1 P(Y), GLONASS P code, BeiDou B1Q...); gpsd leaves a 0 out of its JSON.
    ///
    /// NMEA's Galileo 6 is the E1 A (PRS) signal, which no civilian receiver tracks: receivers
    /// that send it (Quectel LC79D) mean E1 B/C, as 7 does, and both are u-blox's E1 C.
    static func sigid(nmeaSignalID: Int, constellation: Constellation) -> Int? {
        switch constellation {
        case .gps:
            switch nmeaSignalID {
            case 1: 0  // L1 C/A
            case 5: 4  // L2 CM
            case 6: 3  // L2 CL
            case 7: 6  // L5 I
            case 8: 7  // L5 Q
            default: nil
            }
        case .sbas, .imes, .navic:
            nmeaSignalID == 1 ? 0 : nil  // L1 C/A; IMES L1; NavIC L5 A
        case .glonass:
            switch nmeaSignalID {
            case 1: 0  // L1 OF (G1 C/A)
            case 3: 2  // L2 OF (G2 C/A)
            default: nil
            }
        case .galileo:
            switch nmeaSignalID {
            case 1: 3  // E5 aI
            case 2: 5  // E5 bI
            case 4: 10  // E6 A
            case 5: 8  // E6 B
            case 6, 7: 0  // E1 C
            default: nil
            }
        case .beidou:
            switch nmeaSignalID {
            case 1: 0  // B1I D1
            case 3: 5  // B1 Cp
            case 5: 7  // B2 ap
            case 8: 4  // B3I D1
            case 0xB: 2  // B2I D1
            default: nil
            }
        case .qzss:
            switch nmeaSignalID {
            case 1: 0  // L1 C/A
            case 4: 1  // L1 S
            case 5: 4  // L2 CM
            case 6: 5  // L2 CL
            case 7: 8  // L5 I
            case 8: 9  // L5 Q
            default: nil
            }
        }
    }
}
