/// One part of a GSV group: satellites in view with elevation, azimuth and signal strength.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else: a bad elevation, azimuth or signal strength loses that value, a bad satellite number
/// that satellite. The sentence count and number are essential: a part without them cannot be
/// placed in its group, which then ends incomplete (and is reported so).
public struct GSV: Sendable, Hashable {
    /// Who sent it; with ``signalID`` it says which constellation and signal the group is for.
    public var talker: Talker
    /// How many sentences the group has; `nil` when the field is empty or malformed.
    public var messageCount: Int?
    /// This sentence's number in the group, from 1; `nil` when the field is empty or malformed.
    public var messageNumber: Int?
    /// Satellites in view for this talker and signal; `nil` when empty.
    public var satellitesInView: Int?
    /// The satellites this part lists (up to four).
    public var satellites: GSVSatellites
    /// NMEA 4.10 signal ID (hexadecimal in the sentence: BeiDou uses `B`); `nil` before 4.10.
    public var signalID: Int?

    /// Creates a GSV value.
    public init(talker: Talker, messageCount: Int?, messageNumber: Int?, satellitesInView: Int? = nil,
                satellites: GSVSatellites = GSVSatellites(), signalID: Int? = nil) {
        self.talker = talker
        self.messageCount = messageCount
        self.messageNumber = messageNumber
        self.satellitesInView = satellitesInView
        self.satellites = satellites
        self.signalID = signalID
    }

    /// Decodes `$--GSV,t,n,ss,(id,el,az,snr)*[1-4][,h]`; each malformed field is `nil` and
    /// noted in `malformed`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        // Filled in place: a GSV value is large, and one built aside would be copied here.
        self.init(talker: talker, messageCount: 1, messageNumber: 1)
        if !decodeCommon(raw) {
            self.init(general: raw, talker: talker, malformed: &malformed)
        }
    }

    /// The common case, in one straight pass: every number one to three plain digits, within
    /// range, and a signal ID of one digit or none. `false` for anything else, which
    /// ``init(general:talker:)`` then decodes or rejects with the field named.
    @inline(__always)
    private mutating func decodeCommon(_ raw: RawSentence) -> Bool {
        var end = raw.fieldCount
        var signal: Int?
        if (end &- 4) & 3 == 1 {
            end &-= 1
            let field = raw[end]
            if field.count == 1, let digit = hexDigitValue(field[0]) {
                signal = Int(digit)
            } else if field.count != 0 {
                return false
            }
        }
        let rest = end &- 4
        // Every field read below exists, and the last starts three bytes or more before the
        // end (so do all the others): the reads need no checks of their own.
        guard rest >= 0, rest & 3 == 0, rest <= 4 * GSVSatellites.capacity,
              Int(raw.starts[end &- 1]) &+ 3 <= raw.length else { return false }
        let total = raw.shortWholeNumber(unchecked: 1), number = raw.shortWholeNumber(unchecked: 2)
        let inView = raw.shortWholeNumber(unchecked: 3)
        guard total >= 1, number >= 1, number <= total, inView != RawSentence.notAShortNumber else { return false }
        var first = 4
        while first < end {
            let id = raw.shortWholeNumber(unchecked: first)
            let elevation = raw.shortWholeNumber(unchecked: first &+ 1)
            let azimuth = raw.shortWholeNumber(unchecked: first &+ 2)
            let snr = raw.shortWholeNumber(unchecked: first &+ 3)
            // Not a short number anywhere, or a value out of range: the general path.
            let declined = RawSentence.notAShortNumber
            guard id != declined, elevation != declined, azimuth != declined, snr != declined,
                  elevation <= 90, azimuth <= 360, snr <= 99 else { return false }
            if id >= 0 {
                satellites.append(GSVSatellite(id: id, elevation: elevation, azimuth: azimuth, snr: snr))
            }
            first &+= 4
        }
        messageCount = total
        messageNumber = number
        satellitesInView = inView >= 0 ? inView : nil
        signalID = signal
        return true
    }

    /// Every case, with the malformed field named.
    private init(general raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        let total = malformed.reading(try raw.read(1) { field throws(FieldError) -> Int? in
            guard let total = try field.integer() else { return nil }
            guard total >= 1 else { throw FieldError(expected: "the number of sentences, from 1") }
            return total
        })
        messageCount = total
        messageNumber = malformed.reading(try raw.read(2) { field throws(FieldError) -> Int? in
            guard let number = try field.integer() else { return nil }
            guard number >= 1, number <= total ?? .max else {
                throw FieldError(expected: "a sentence number from 1 to \(total.map(String.init) ?? "the number of sentences")")
            }
            return number
        })
        satellitesInView = malformed.reading(try raw.integer(3))
        let rest = max(0, raw.fieldCount - 4)
        var groups = rest / 4
        switch rest % 4 {
        case 0: break
        case 1: signalID = malformed.reading(try raw.read(raw.fieldCount - 1) { field throws(FieldError) in try field.hexInteger() })
        default: malformed.note(raw.fieldCount - 1, expected: "groups of four satellite fields")
        }
        if groups > GSVSatellites.capacity {
            malformed.note(4 + 4 * GSVSatellites.capacity, expected: "at most four satellites")
            groups = GSVSatellites.capacity
        }
        satellites = GSVSatellites()
        for group in 0..<groups {
            let first = 4 + group * 4
            let id = malformed.reading(try raw.integer(first))
            let elevation = malformed.reading(try raw.decimal(first + 1, in: -90...90))
            let azimuth = malformed.reading(try raw.decimal(first + 2, in: 0...360))
            let snr = malformed.reading(try raw.decimal(first + 3, in: 0...99))
            guard let id else { continue }
            satellites.append(GSVSatellite(id: id, elevation: elevation, azimuth: azimuth, snr: snr))
        }
    }
}

/// A satellite as a GSV sentence gives it.
public struct GSVSatellite: Sendable, Hashable {
    // Compact storage (``CompactDouble``) keeps a GSV sentence small enough to pass around
    // without copying hundreds of bytes; a view takes the values as they are.
    private let storedID: Int32

    /// The satellite's NMEA ID as sent (its meaning depends on the talker; see ``SatelliteID``).
    public var id: Int { Int(storedID) }
    /// Elevation above the horizon, degrees; `nil` when unknown.
    @CompactDouble public private(set) var elevation: Double?
    /// Azimuth from true north, degrees; `nil` when unknown.
    @CompactDouble public private(set) var azimuth: Double?
    /// Carrier-to-noise density, dB-Hz; `nil` when the satellite is not tracked.
    @CompactDouble public private(set) var snr: Double?

    /// Creates a satellite record.
    public init(id: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil) {
        storedID = Int32(clamping: id)
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
    }

    /// From ``RawSentence/shortWholeNumber(_:)`` results: a negative value is an empty field.
    @inline(__always)
    init(id: Int, elevation: Int, azimuth: Int, snr: Int) {
        storedID = Int32(truncatingIfNeeded: id)
        _elevation = Self.valueOrNone(elevation)
        _azimuth = Self.valueOrNone(azimuth)
        _snr = Self.valueOrNone(snr)
    }

    /// `Double(value)`, or none for a negative value, without a branch: empty signal
    /// strengths come and go from one satellite to the next.
    @inline(__always)
    private static func valueOrNone(_ value: Int) -> CompactDouble {
        let negative = UInt64(bitPattern: Int64(value >> 63))
        return CompactDouble(storing: Double(bitPattern: Double(value).bitPattern & ~negative | Double.nan.bitPattern & negative))
    }

    /// Equal when every field is equal (empty fields equal each other).
    public static func == (lhs: GSVSatellite, rhs: GSVSatellite) -> Bool {
        lhs.id == rhs.id && lhs.elevation == rhs.elevation && lhs.azimuth == rhs.azimuth && lhs.snr == rhs.snr
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(elevation)
        hasher.combine(azimuth)
        hasher.combine(snr)
    }
}

/// Up to four ``GSVSatellite`` values, stored inline (no heap allocation).
public struct GSVSatellites: Sendable, Hashable, RandomAccessCollection {
    /// Equal when they hold the same satellites.
    public static func == (lhs: GSVSatellites, rhs: GSVSatellites) -> Bool { lhs.elementsEqual(rhs) }
    /// Hashes the satellites held.
    public func hash(into hasher: inout Hasher) { for satellite in self { hasher.combine(satellite) } }

    /// The most satellites one GSV sentence carries.
    public static let capacity = 4
    private var storage = InlineArray<4, GSVSatellite>(repeating: GSVSatellite(id: 0))
    /// How many satellites are held.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// Appends a satellite; ignored when four are held already.
    @inline(__always)
    public mutating func append(_ satellite: GSVSatellite) {
        guard count < Self.capacity else { return }
        storage[unchecked: count] = satellite
        count &+= 1
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }
    /// The satellite at `position`.
    public subscript(position: Int) -> GSVSatellite {
        precondition(position >= 0 && position < count, "index out of range")
        return storage[unchecked: position]
    }
}

extension GSV: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "S", "V") }
    var sentence: NMEASentence { .gsv(self) }

    /// Its satellites go to the sky assembler, not into the fix.
    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.addSatellites(self, into: &sink)
    }
}
