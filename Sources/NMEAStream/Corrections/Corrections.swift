import NTRIP

/// Where a receiver's RTK corrections come from: an NTRIP caster's mountpoint, whose RTCM 3
/// frames are written to the receiver while it is open (see ``CorrectionsFeed``).
public struct Corrections: Sendable, Hashable {
    /// The caster and mountpoint, with the user and password if it asks for them.
    public var caster: NTRIPEndpoint
    /// Which NTRIP the requests speak.
    public var version: NTRIPVersion
    /// How often the receiver's latest position goes to the caster as a GGA sentence, which a
    /// network mountpoint (VRS) needs to make corrections for where the receiver is; `nil`
    /// never (a single base station's mountpoint needs none).
    public var positionInterval: Duration?
    /// How long the caster may send nothing before the connection is made again.
    public var silenceLimit: Duration

    /// The default ``positionInterval``: what RTKLIB and most NTRIP clients send.
    public static let defaultPositionInterval = Duration.seconds(10)

    /// Corrections from `caster`, which must name a mountpoint.
    public init(caster: NTRIPEndpoint, version: NTRIPVersion = .v2, positionInterval: Duration? = Self.defaultPositionInterval,
                silenceLimit: Duration = NTRIPClient.defaultSilenceLimit) {
        self.caster = caster
        self.version = version
        self.positionInterval = positionInterval
        self.silenceLimit = silenceLimit
    }
}
