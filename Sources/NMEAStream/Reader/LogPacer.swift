/// Where a paced replay must wait, and what it sends at once: the seconds of day a sentence's
/// UTC time, or a UBX navigation message's time of week, says.
enum LogPacer {
    /// The seconds since midnight of `line` (one sentence, line end excluded), or `nil` when
    /// it carries no time or the time field is not `hhmmss[.s…]`.
    static func secondsOfDay(_ line: UnsafeRawBufferPointer) -> Double? {
        guard let time = NMEASentence.timeOfDay(inLine: line) else { return nil }
        return Double(time.nanosecondsSinceMidnight) / 1e9
    }

    /// What a log sends at once, and when: `length` bytes from the start, due at
    /// `secondsOfDay` (`nil`: at once).
    struct Unit: Equatable {
        var length: Int
        var secondsOfDay: Double?
    }

    /// The next unit at the start of `bytes`: a checksum-valid UBX frame whole (timed by its
    /// time of week less the 18 leap seconds gpsd assumes, so that it falls on the UTC clock of
    /// the sentences beside it), else a line up to its end, or up to the first byte of a UBX
    /// frame after it; `nil` when more bytes are needed to tell and the log goes on (`atEnd`
    /// false). A UBX frame's bytes are never cut at a line end inside them.
    static func nextUnit(_ bytes: UnsafeRawBufferPointer, atEnd: Bool, maximumPayload: Int = 8192) -> Unit? {
        let count = bytes.count
        guard count > 0 else { return nil }
        var searchFrom = 0
        if bytes[0] == 0xB5 {
            guard count >= 6 else { return atEnd ? Unit(length: count) : nil }
            let payload = Int(bytes[4]) | Int(bytes[5]) << 8
            if bytes[1] == 0x62, payload <= maximumPayload {
                let total = payload + 8
                guard count >= total else { return atEnd ? Unit(length: count) : nil }
                let frame = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let (a, b) = UBXFrame.checksum(frame + 2, count: total - 4)
                if a == bytes[total - 2], b == bytes[total - 1] {
                    var seconds: Double?
                    if payload >= 4, UBXMessage.timedKinds.contains(UBXMessageKind(messageClass: bytes[2], messageID: bytes[3])) {
                        let timeOfWeek = UInt32(bytes[6]) | UInt32(bytes[7]) << 8 | UInt32(bytes[8]) << 16 | UInt32(bytes[9]) << 24
                        let ofDay = (Double(timeOfWeek) / 1000 - Double(GPSTime.assumedLeapSeconds))
                            .truncatingRemainder(dividingBy: 86_400)
                        seconds = ofDay < 0 ? ofDay + 86_400 : ofDay
                    }
                    return Unit(length: total, secondsOfDay: seconds)
                }
            }
            searchFrom = 1
        }
        var end = searchFrom
        while end < count {
            let byte = bytes[end]
            if byte == 0x0A || byte == 0x0D {
                end += 1
                break
            }
            if byte == 0xB5 { break }
            end += 1
        }
        guard end < count || atEnd || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D else { return nil }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        return Unit(length: end, secondsOfDay: secondsOfDay(line))
    }
}
