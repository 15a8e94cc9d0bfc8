import NMEA

/// The message of a frame, decoded, with the fields that could not be read.
func decodeUBX(_ bytes: [UInt8]) -> (message: UBXMessage, malformed: [MalformedField])? {
    var result: (message: UBXMessage, malformed: [MalformedField])?
    let framer = NMEAFramer()
    bytes.withUnsafeBytes { buffer in
        framer.feed(buffer) { event in
            if case .ubx(let frame) = event { result = UBXMessage.decode(frame) }
        }
    }
    return result
}
