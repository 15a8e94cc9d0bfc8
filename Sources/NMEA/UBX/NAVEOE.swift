/// NAV-EOE (`0x01 0x61`): the last of an epoch's navigation messages (u-blox 8 and later).
public struct NAVEOE: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x61)
    static let name = "NAV-EOE"
    static let minimumLength = 4

    /// The GPS time of week of the epoch that ended, in milliseconds.
    public var timeOfWeek: UInt32?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
    }

    func apply(to epoch: inout EpochAccumulator) {}
}
