/// A set of satellites as a bitmap: 256 numbers for each constellation, stored inline.
struct SatelliteSet: Sendable, Hashable {
    // Indexed in place: reading one word copies nothing else.
    private var words = InlineArray<32, UInt64>(repeating: 0)

    mutating func removeAll() {
        // Word by word in place: a fresh set assigned would be built and copied whole.
        for index in 0..<32 { words[index] = 0 }
    }

    @inline(__always)
    private static func position(_ id: SatelliteID) -> (word: Int, bit: UInt64)? {
        let word = id.constellation.rawValue &* 4 &+ id.svid &>> 6
        guard (0..<256).contains(id.svid), word < 32 else { return nil }
        return (word, UInt64(1) &<< UInt64(id.svid & 63))
    }

    mutating func insert(_ id: SatelliteID) {
        guard let (word, bit) = Self.position(id) else { return }
        words[word] |= bit
    }

    /// How many satellites the set holds.
    var count: Int {
        var total = 0
        for index in 0..<32 { total &+= words[index].nonzeroBitCount }
        return total
    }

    func contains(_ id: SatelliteID) -> Bool {
        guard let (word, bit) = Self.position(id) else { return false }
        return words[word] & bit != 0
    }

    /// Sets `used` on each satellite in the set. Mutating only to read the words in place,
    /// through a pointer: subscripting a borrowed inline array copies all of it, and a span
    /// of it costs an allocation.
    mutating func markUsed(_ satellites: inout [Satellite]) {
        withUnsafeMutablePointer(to: &words) { storage in
            // An inline array's elements are laid out contiguously from its start.
            let words = UnsafeMutableRawPointer(storage).assumingMemoryBound(to: UInt64.self)
            for index in satellites.indices {
                guard let id = satellites[index].id, let (word, bit) = Self.position(id) else { continue }
                if words[word] & bit != 0 { satellites[index].used = true }
            }
        }
    }

    static func == (lhs: SatelliteSet, rhs: SatelliteSet) -> Bool {
        (0..<32).allSatisfy { lhs.words[$0] == rhs.words[$0] }
    }

    func hash(into hasher: inout Hasher) {
        for index in 0..<32 { hasher.combine(words[index]) }
    }
}
