/// GSA: the satellites used in the fix and the dilutions of precision.
/// Every property is `nil` when its field is empty or malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else: a bad
/// satellite number loses that satellite, a bad DOP that DOP. The fix type is the field that
/// matters most: without it the sentence says nothing about the fix's dimension (see
/// ``EpochAssembler``). A sentence too short to hold the DOPs keeps its first two fields.
public struct GSA: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// `M` (manual, forced 2D or 3D) or `A` (automatic) as an ASCII byte.
    public var selectionMode: UInt8?
    /// Fix type: 1 no fix, 2 2D, 3 3D.
    public var fixType: Int?
    /// The satellites used, as the receiver numbers them (NMEA IDs; per constellation when
    /// ``systemID`` is present).
    public var satellites: SatelliteNumbers
    /// Position (3D) dilution of precision.
    @CompactDouble public var pdop: Double?
    /// Horizontal dilution of precision.
    @CompactDouble public var hdop: Double?
    /// Vertical dilution of precision.
    @CompactDouble public var vdop: Double?
    /// NMEA 4.10 GNSS system ID: 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC.
    public var systemID: Int?

    /// Creates a GSA value.
    public init(talker: Talker, selectionMode: UInt8? = nil, fixType: Int? = nil, satellites: SatelliteNumbers = SatelliteNumbers(),
                pdop: Double? = nil, hdop: Double? = nil, vdop: Double? = nil, systemID: Int? = nil) {
        self.talker = talker
        self.selectionMode = selectionMode
        self.fixType = fixType
        self.satellites = satellites
        self.pdop = pdop
        self.hdop = hdop
        self.vdop = vdop
        self.systemID = systemID
    }

    /// Decodes `$--GSA,a,x,xx,...,xx,x.x,x.x,x.x[,h]`: twelve satellite fields as NMEA says, or
    /// any other number as some receivers send.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        selectionMode = malformed.reading(try raw.character(1))
        fixType = malformed.reading(try raw.fixType(2))
        satellites = SatelliteNumbers()
        let count = raw.fieldCount
        guard count >= 6 else {
            if count > 3 { malformed.note(count, expected: "at least 5 fields") }
            return
        }
        let hasSystemID: Bool
        switch count {
        case 18: hasSystemID = false
        case 19: hasSystemID = true
        default:
            let last = raw[count - 1]
            hasSystemID = last.count == 1 && hexDigitValue(last[0]) != nil
        }
        let dopStart = count - (hasSystemID ? 4 : 3)
        for index in 3..<max(3, dopStart) {
            guard let number = malformed.reading(try raw.integer(index)) else { continue }
            guard satellites.append(number) else {
                malformed.note(index, expected: "at most \(SatelliteNumbers.capacity) satellites of 0 to 65535")
                continue
            }
        }
        pdop = malformed.reading(try raw.decimal(dopStart, in: 0...9999))
        hdop = malformed.reading(try raw.decimal(dopStart + 1, in: 0...9999))
        vdop = malformed.reading(try raw.decimal(dopStart + 2, in: 0...9999))
        if hasSystemID {
            systemID = malformed.reading(try raw.read(count - 1) { field throws(FieldError) in try field.hexInteger() })
        }
    }
}

/// Up to 32 satellite numbers, stored inline (no heap allocation).
public struct SatelliteNumbers: Sendable, Hashable, RandomAccessCollection {
    /// The most numbers it holds.
    public static let capacity = 32
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// The number of satellites held.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// A list of `numbers` (the first ``capacity`` of them).
    public init(_ numbers: some Sequence<Int>) {
        for number in numbers where !append(number) { break }
    }

    /// Appends a number (0 to 65535); returns `false` when full or out of range.
    @discardableResult
    public mutating func append(_ number: Int) -> Bool {
        guard count < Self.capacity, (0...Int(UInt16.max)).contains(number) else { return false }
        let offset = count * 2
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: UInt16(number), toByteOffset: offset, as: UInt16.self) }
        count += 1
        return true
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }
    /// The number at `position`.
    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "index out of range")
        return Int(withUnsafeBytes(of: storage) { $0.load(fromByteOffset: position * 2, as: UInt16.self) })
    }

    /// Calls `body` with each number in order, with one read of the storage rather than one
    /// per number.
    @inline(__always)
    func forEachNumber(_ body: (Int) -> Void) {
        withUnsafeBytes(of: storage) { bytes in
            for position in 0..<count { body(Int(bytes.load(fromByteOffset: position &* 2, as: UInt16.self))) }
        }
    }

    /// Equal when they hold the same numbers in the same order.
    public static func == (lhs: SatelliteNumbers, rhs: SatelliteNumbers) -> Bool { lhs.elementsEqual(rhs) }
    /// Hashes the numbers held.
    public func hash(into hasher: inout Hasher) { for number in self { hasher.combine(number) } }
}

extension GSA: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "S", "A") }
    var sentence: NMEASentence { .gsa(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.mergeDilutions(pdop: pdop, hdop: hdop, vdop: vdop)
        epoch.mode.fixType(fixType)
        let system = systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? talker.constellation
        epoch.markUsed { used in
            satellites.forEachNumber { number in
                if let id = SatelliteID(nmeaID: number, constellation: system) { used.insert(id) }
            }
        }
    }
}
