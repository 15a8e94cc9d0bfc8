/// A set of satellites as a bitmap: 256 numbers for each constellation, stored inline.
struct SatelliteSet: Sendable, Hashable {
    private typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private var words: Words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    mutating func removeAll() { self = SatelliteSet() }

    mutating func insert(_ id: SatelliteID) {
        guard (0..<256).contains(id.svid) else { return }
        let word = id.constellation.rawValue * 4 + id.svid >> 6
        let bit = UInt64(1) << UInt64(id.svid & 63)
        withUnsafeMutableBytes(of: &words) { bytes in
            let value = bytes.load(fromByteOffset: word * 8, as: UInt64.self)
            bytes.storeBytes(of: value | bit, toByteOffset: word * 8, as: UInt64.self)
        }
    }

    func contains(_ id: SatelliteID) -> Bool {
        guard (0..<256).contains(id.svid) else { return false }
        let word = id.constellation.rawValue * 4 + id.svid >> 6
        let value = withUnsafeBytes(of: words) { $0.load(fromByteOffset: word * 8, as: UInt64.self) }
        return value & (UInt64(1) << UInt64(id.svid & 63)) != 0
    }

    static func == (lhs: SatelliteSet, rhs: SatelliteSet) -> Bool {
        withUnsafeBytes(of: lhs.words) { a in withUnsafeBytes(of: rhs.words) { b in a.elementsEqual(b) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
    }
}
