import NMEA
import NMEARendering

/// One line the server sends a client, as gpsd's protocol defines it: a JSON object with
/// `class` first, no `null`, no NaN, ending in CR LF (Python's gps module parses nothing
/// with LF alone).
public enum ServerReply: Sendable, Equatable {
    /// `VERSION`, sent on connect and for `?VERSION;`.
    case version(VersionInfo)
    /// `DEVICES`: every device the server has.
    case devices([DeviceDescription])
    /// `DEVICE`: one device, or the notice that it went away (`activated` 0).
    case device(DeviceDescription)
    /// `DEVICE` with `activated` 0: the device at this path went away.
    case deviceGone(path: String)
    /// `WATCH`: the client's policy.
    case watch(WatchPolicy)
    /// `ERROR`.
    case error(String)
    /// `POLL`: the latest fix and sky of each active device, at `time`.
    case poll(time: UTCTime, active: Int, fixes: [(device: String, fix: Fix)], skies: [(device: String, sky: Sky)])
    /// `TOFF` or `PPS`: a time sample, to clients that watch with `pps`.
    case timeOffset(TimeOffsetReport)

    public static func == (lhs: ServerReply, rhs: ServerReply) -> Bool { lhs.line == rhs.line }

    /// The line, CR LF included.
    public var line: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self) + "\r\n"
    }

    /// Writes the object (without the line end).
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .version(let info):
            writer.beginObject()
            writer.asciiString("class", "VERSION")
            writer.string("release", info.release)
            writer.string("rev", info.revision)
            writer.integer("proto_major", info.protocolMajor)
            writer.integer("proto_minor", info.protocolMinor)
            writer.endObject()
        case .devices(let devices):
            writer.beginObject()
            writer.asciiString("class", "DEVICES")
            writer.beginArray("devices")
            for device in devices { Self.writeDevice(device, to: &writer) }
            writer.endArray()
            writer.endObject()
        case .device(let device):
            Self.writeDevice(device, to: &writer)
        case .timeOffset(let report):
            report.write(to: &writer)
        case .deviceGone(let path):
            writer.beginObject()
            writer.asciiString("class", "DEVICE")
            writer.string("path", path)
            writer.integer("activated", 0)
            writer.endObject()
        case .watch(let policy):
            writer.beginObject()
            writer.asciiString("class", "WATCH")
            writer.bool("enable", policy.enable)
            writer.bool("json", policy.json)
            writer.bool("nmea", policy.nmea)
            writer.integer("raw", policy.raw)
            writer.bool("scaled", policy.scaled)
            writer.bool("timing", policy.timing)
            writer.bool("split24", policy.split24)
            writer.bool("pps", policy.pps)
            if let device = policy.device { writer.string("device", device) }
            writer.endObject()
        case .error(let message):
            writer.beginObject()
            writer.asciiString("class", "ERROR")
            writer.string("message", message)
            writer.endObject()
        case .poll(let time, let active, let fixes, let skies):
            writer.beginObject()
            writer.asciiString("class", "POLL")
            writer.time("time", time)
            writer.integer("active", active)
            writer.beginArray("tpv")
            for (device, fix) in fixes { GPSDJSON.writeTPV(fix, device: device, to: &writer) }
            writer.endArray()
            writer.beginArray("sky")
            for (device, sky) in skies { GPSDJSON.writeSKY(sky, device: device, to: &writer) }
            writer.endArray()
            writer.endObject()
        }
    }

    /// A device as gpsd describes a serial NMEA receiver: its path, driver, activation time,
    /// flags (1: GPS data seen) and serial settings (8N1: nmeastream never changes them).
    private static func writeDevice(_ device: DeviceDescription, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.asciiString("class", "DEVICE")
        writer.string("path", device.path)
        if device.seenNMEA { writer.asciiString("driver", "NMEA0183") }
        if let activated = device.activated { writer.time("activated", activated) }
        if device.seenNMEA { writer.integer("flags", 1) }
        writer.integer("native", 0)
        if let bps = device.bitsPerSecond {
            writer.integer("bps", bps)
            writer.asciiString("parity", "N")
            writer.integer("stopbits", 1)
        }
        if let discovered = device.discovered { writer.string("discovered", discovered) }
        writer.endObject()
    }
}
