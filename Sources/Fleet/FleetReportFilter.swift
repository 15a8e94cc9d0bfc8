import FoundationEssentials
import NMEA

/// What a fleet subscriber takes of each message, with no I/O: a gpsd `TPV` or `SKY` report
/// of the vehicle its topic names, once. Everything a message holds is from outside, and
/// nothing in it can stop the subscriber or grow what it holds past its bounds.
///
/// - The vehicle is the topic level before `tpv` or `sky` (the one the broker's access rules
///   protect). A report whose `device` names another vehicle is refused: one vehicle cannot
///   speak for another. A name of more than ``maximumNameLength`` bytes is refused.
/// - The payload is one JSON object of at most ``maximumReportLength`` bytes on one line with
///   no control bytes (valid JSON has none outside escapes), so that printed as received it
///   can neither forge a line nor reach a terminal. Its members are read as ``ReportObject`` reads them.
/// - A repeat (the same class, time and bytes: QoS 1 delivers a message again) is dropped,
///   among the last ``repeatWindow`` reports of each of the last ``maximumVehicles``
///   vehicles heard from; past that, the vehicle heard from longest ago is forgotten.
public struct FleetReportFilter: Sendable {
    /// What becomes of one message.
    public enum Outcome: Sendable {
        /// A report to deliver.
        case deliver(FleetSubscriber.Report)
        /// A repeat of a report delivered lately: dropped.
        case repeated
        /// Not a report of its topic's vehicle: skipped.
        case malformed
    }

    /// How many vehicles it remembers reports of.
    public static let maximumVehicles = 10_000
    /// How many of a vehicle's latest reports it remembers, to know their repeats.
    public static let repeatWindow = 256
    /// The longest vehicle name taken, in bytes.
    public static let maximumNameLength = 256
    /// The longest report taken, in bytes: a gpsd `TPV` is under 1 KB, a `SKY` of every
    /// satellite in view under 16 KB.
    public static let maximumReportLength = 65_536

    /// A vehicle's reports delivered lately, as hashes of their class, time and bytes (8
    /// bytes a report whatever its size), oldest first.
    private struct Vehicle {
        var keys: Set<Int> = []
        var order: [Int] = []
        var heard: UInt64 = 0
    }

    private var vehicles: [String: Vehicle] = [:]
    /// Bumped at each report: when each vehicle was heard from last.
    private var clock: UInt64 = 0
    /// Vehicles forgotten so far to stay within ``maximumVehicles``.
    public private(set) var vehiclesForgotten = 0

    /// How many vehicles it remembers now.
    public var vehicleCount: Int { vehicles.count }

    /// A filter that remembers nothing yet.
    public init() {}

    /// What becomes of the message `payload` on `topic`.
    public mutating func take(topic: String, payload: [UInt8], decoder: JSONDecoder = JSONDecoder()) -> Outcome {
        // Levels are split at the byte `/`, as the broker does: split as characters, a `/`
        // followed by a combining mark would be no separator, and the vehicle's name would
        // take in the levels before it.
        let levels = topic.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let vehicle = levels.count >= 2 ? String(decoding: levels[levels.count - 2], as: UTF8.self) : ""
        guard !vehicle.isEmpty, vehicle.utf8.count <= Self.maximumNameLength, payload.count <= Self.maximumReportLength,
              !payload.contains(where: { $0 < 0x20 }),
              let object = try? decoder.decode(ReportObject.self, from: Data(payload)),
              let reportClass = object.reportClass, reportClass == "TPV" || reportClass == "SKY",
              object.device == nil || object.device == vehicle,
              let json = String(validating: payload, as: UTF8.self) else { return .malformed }
        let time = object.time
        clock += 1
        var seen = vehicles.removeValue(forKey: vehicle) ?? Vehicle()
        seen.heard = clock
        defer { remember(seen, as: vehicle) }
        // A repeat is the same vehicle, time and bytes (QoS 1 delivers the very message
        // again); a report revised for the same time differs, and is delivered. Reports
        // without a time cannot be told apart from their repeats: all delivered.
        if let time {
            var hasher = Hasher()
            hasher.combine(reportClass)
            hasher.combine(time)
            hasher.combine(json)
            let key = hasher.finalize()
            guard !seen.keys.contains(key) else { return .repeated }
            seen.keys.insert(key)
            seen.order.append(key)
            if seen.order.count > Self.repeatWindow { seen.keys.remove(seen.order.removeFirst()) }
        }
        return .deliver(FleetSubscriber.Report(vehicle: vehicle, reportClass: reportClass, time: time, json: json,
                                               fix: reportClass == "TPV" ? object.fix : nil))
    }

    private mutating func remember(_ vehicle: Vehicle, as name: String) {
        vehicles[name] = vehicle
        // Only a new vehicle can take the table past its bound: one scan per new vehicle.
        if vehicles.count > Self.maximumVehicles, let oldest = vehicles.min(by: { $0.value.heard < $1.value.heard }) {
            vehicles.removeValue(forKey: oldest.key)
            vehiclesForgotten += 1
        }
    }
}
