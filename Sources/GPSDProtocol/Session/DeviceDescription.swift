import NMEA

/// A receiver as the server describes it in `DEVICES` and `DEVICE`.
public struct DeviceDescription: Sendable, Hashable {
    /// The device's path, as the server was given it or discovery found it.
    public var path: String
    /// When the device was opened for its current watchers; `nil` while it is closed.
    public var activated: UTCTime?
    /// The serial speed, bits per second; `nil` before it is known.
    public var bitsPerSecond: Int?
    /// Whether NMEA has been seen from it.
    public var seenNMEA: Bool
    /// For a port the server found itself: what discovery took it for and what the server
    /// decided (served, or left alone, and why); `nil` for a device named. Sent as
    /// `discovered`, nmeastream's own member (gpsd's clients skip members they do not know).
    public var discovered: String?

    /// Describes the device at `path`.
    public init(path: String, activated: UTCTime? = nil, bitsPerSecond: Int? = nil, seenNMEA: Bool = false,
                discovered: String? = nil) {
        self.path = path
        self.activated = activated
        self.bitsPerSecond = bitsPerSecond
        self.seenNMEA = seenNMEA
        self.discovered = discovered
    }
}

/// What the server says of itself in `VERSION`.
public struct VersionInfo: Sendable, Hashable {
    /// The release reported: nmeastream's own by default; a gpsd release for clients that
    /// warn and pause when it differs from theirs.
    public var release: String
    /// The revision reported.
    public var revision: String
    /// The protocol version's major number: 3 by default, as gpsd 3.22 (Debian 12) speaks it;
    /// its clients warn when it differs from theirs.
    public var protocolMajor: Int
    /// The protocol version's minor number: 14 by default, as gpsd 3.22.
    public var protocolMinor: Int

    /// nmeastream's own: its release (``NMEAStreamRelease/version``), and `nmeastream` and the
    /// release as the revision.
    public static let nmeastream = VersionInfo(release: NMEAStreamRelease.version,
                                               revision: "nmeastream \(NMEAStreamRelease.version)")

    /// Describes the server.
    public init(release: String, revision: String, protocolMajor: Int = 3, protocolMinor: Int = 14) {
        self.release = release
        self.revision = revision
        self.protocolMajor = protocolMajor
        self.protocolMinor = protocolMinor
    }
}
