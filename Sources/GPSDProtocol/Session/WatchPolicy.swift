/// What a client asked to watch, as gpsd keeps it per client and reports it in `WATCH`.
public struct WatchPolicy: Sendable, Hashable {
    /// Watcher mode: reports flow to the client.
    public var enable = false
    /// Reports as JSON (`TPV`, `SKY`).
    public var json = false
    /// Each valid sentence as received.
    public var nmea = false
    /// 1: the sentences as received; 2: the device's bytes unchanged.
    public var raw = 0
    /// Accepted and reported; nmeastream's output is the same either way.
    public var scaled = false
    /// Accepted and reported (gpsd's developer timing); nothing more.
    public var timing = false
    /// Accepted and reported (AIS only); nothing more.
    public var split24 = false
    /// The time service's samples: `TOFF` for each serial time sample, `PPS` for each pulse.
    public var pps = false
    /// The one device watched; `nil` for every device.
    public var device: String?

    /// The policy of a client that has not asked for anything.
    public init() {}

    /// Applies a `?WATCH={...}` object the way gpsd reads it: `enable` is `true` when absent;
    /// `json`, `nmea` and `raw` keep their previous values when absent (`raw` also taken as a
    /// boolean); `device`, `scaled`, `timing`, `split24` and `pps` go back to their defaults
    /// when absent; unknown keys are ignored; `class`, when present, must be `WATCH`. On an
    /// error nothing changes.
    public mutating func apply(_ arguments: [String: ArgumentValue]) throws(ProtocolError) {
        var next = self
        if let value = arguments["class"], value != .string("WATCH") {
            throw ProtocolError.invalidArguments("class must be WATCH")
        }
        next.enable = try Self.bool(arguments, "enable") ?? true
        next.json = try Self.bool(arguments, "json") ?? json
        next.nmea = try Self.bool(arguments, "nmea") ?? nmea
        if let value = arguments["raw"] {
            guard let raw = value.wholeNumber, (0...2).contains(raw) else {
                throw ProtocolError.invalidArguments("raw must be 0, 1 or 2")
            }
            next.raw = raw
        }
        next.scaled = try Self.bool(arguments, "scaled") ?? false
        next.timing = try Self.bool(arguments, "timing") ?? false
        next.split24 = try Self.bool(arguments, "split24") ?? false
        next.pps = try Self.bool(arguments, "pps") ?? false
        switch arguments["device"] {
        case nil, .null?: next.device = nil
        case .string(let path)?: next.device = path.isEmpty ? nil : path
        default: throw ProtocolError.invalidArguments("device must be a path")
        }
        self = next
    }

    /// Whether reports from the device at `path` go to this client.
    public func watches(_ path: String) -> Bool { enable && (device == nil || device == path) }

    private static func bool(_ arguments: [String: ArgumentValue], _ key: String) throws(ProtocolError) -> Bool? {
        switch arguments[key] {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw ProtocolError.invalidArguments("\(key) must be true or false")
        }
    }
}
