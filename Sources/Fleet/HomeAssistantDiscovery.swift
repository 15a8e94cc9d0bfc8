import NMEAStream

/// Home Assistant's MQTT discovery for a vehicle that a ``FixPublisher`` publishes: with it,
/// the vehicle appears in Home Assistant by itself, as a `device_tracker` entity on its map.
///
/// Home Assistant's conventions (its MQTT device tracker): a retained configuration at
/// `PREFIX/device_tracker/OBJECT_ID/config` names the entity, its device and the topic of its
/// attributes, and each fix is a retained JSON object on that topic with `latitude`,
/// `longitude` and `gps_accuracy` (metres), which place it on the map, and a few more
/// attributes that Home Assistant shows as they are (altitude, speed, course, the fix's time).
/// The gpsd-style topics are published as before, beside it.
public struct HomeAssistantDiscovery: Sendable, Hashable {
    /// The discovery prefix Home Assistant listens under (`homeassistant` unless its MQTT
    /// integration was set otherwise).
    public var prefix: String

    /// Discovery under `prefix`.
    public init(prefix: String = "homeassistant") {
        self.prefix = prefix
    }

    /// The vehicle's object ID: `nmeastream_` and its name, with every character that a
    /// discovery topic does not allow (only letters, digits, `_` and `-`) as `_`. Distinct
    /// names give distinct IDs (else one vehicle would silently replace another on the map):
    /// a name that had characters replaced, or that ends as such an ID does, gets `__` and a
    /// 64-bit hash of its bytes after it (`van 7` and `van.7` differ).
    public static func objectID(for name: String) -> String {
        var replaced = false
        let cleaned = String(name.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return Character(scalar)
            default:
                replaced = true
                return "_"
            }
        })
        guard replaced || looksHashed(cleaned) else { return "nmeastream_" + cleaned }
        return "nmeastream_" + cleaned + "__" + hexadecimal(fnv1a(Array(name.utf8)))
    }

    /// Whether `name` ends as a hashed ID does (`__` and 16 hexadecimal digits).
    private static func looksHashed(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count >= 18, scalars[scalars.count - 18] == "_", scalars[scalars.count - 17] == "_" else { return false }
        return scalars.suffix(16).allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// FNV-1a, 64 bits: stable from run to run and release to release (Swift's `Hasher` is not).
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Where the vehicle `name`'s configuration goes.
    public func configurationTopic(name: String) -> String {
        prefix + "/device_tracker/" + Self.objectID(for: name) + "/config"
    }

    /// The configuration of vehicle `name`, whose fixes go to `attributesTopic`: the entity
    /// (named after the vehicle, a GPS tracker), and its device (the vehicle, made by
    /// nmeastream at `version`).
    public func configuration(name: String, attributesTopic: String, version: String) -> [UInt8] {
        let id = Self.objectID(for: name)
        var writer = JSONWriter()
        writer.beginObject()
        writer.string("name", name)
        writer.string("unique_id", id)
        writer.string("object_id", id)
        writer.asciiString("source_type", "gps")
        writer.string("json_attributes_topic", attributesTopic)
        writer.beginObject("device")
        writer.beginArray("identifiers")
        writer.string(id)
        writer.endArray()
        writer.string("name", name)
        writer.asciiString("manufacturer", "nmeastream")
        writer.asciiString("model", "GNSS receiver")
        writer.string("sw_version", version)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// The attributes of `fix`: `latitude` and `longitude` (degrees), and, when known,
    /// `gps_accuracy` (metres: the horizontal error estimate, gpsd's `eph`), `altitude` (metres
    /// above sea level), `speed` (m/s), `course` (degrees) and `time` (UTC); `nil` for a fix
    /// without a position, which would move the vehicle nowhere.
    public static func attributes(_ fix: Fix) -> [UInt8]? {
        guard let latitude = fix.latitude, let longitude = fix.longitude, fix.mode >= .twoD else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.number("latitude", latitude, decimals: 9)
        writer.number("longitude", longitude, decimals: 9)
        writer.number("gps_accuracy", fix.errorEstimates.horizontal, decimals: 1)
        writer.number("altitude", fix.altitudeMSL, decimals: 1)
        writer.number("speed", fix.speed, decimals: 2)
        writer.number("course", fix.track, decimals: 1)
        if let time = fix.time { writer.time("time", time) }
        writer.endObject()
        return writer.bytes
    }
}
