/// Where a paced replay must wait: the seconds of day a sentence's UTC time says, for the
/// sentence types that carry one.
enum LogPacer {
    /// The time field's index for the types that carry a fix time, by formatter.
    private static func timeField(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        switch (a, b, c) {
        case (0x47, 0x47, 0x41), (0x52, 0x4D, 0x43), (0x5A, 0x44, 0x41), (0x47, 0x4E, 0x53),
             (0x47, 0x53, 0x54), (0x47, 0x42, 0x53): 1  // GGA RMC ZDA GNS GST GBS
        case (0x47, 0x4C, 0x4C): 5  // GLL
        default: nil
        }
    }

    /// The seconds since midnight of `line` (one sentence, line end excluded), or `nil` when
    /// it carries no time or the time field is not `hhmmss[.s…]`.
    static func secondsOfDay(_ line: UnsafeRawBufferPointer) -> Double? {
        guard line.count > 7, line[0] == UInt8(ascii: "$"), line[6] == UInt8(ascii: ","),
              let field = timeField(line[3], line[4], line[5]) else { return nil }
        var index = 7
        var current = 1
        while current < field, index < line.count {
            if line[index] == UInt8(ascii: ",") { current += 1 }
            index += 1
        }
        var digits: [Int] = []
        while index < line.count, digits.count < 6 {
            let digit = Int(line[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            digits.append(digit)
            index += 1
        }
        guard digits.count == 6 else { return nil }
        var seconds = Double((digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60 + digits[4] * 10 + digits[5])
        if index < line.count, line[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            while index < line.count, let digit = Optional(Int(line[index]) - 48), (0...9).contains(digit) {
                seconds += Double(digit) * scale
                scale /= 10
                index += 1
            }
        }
        return seconds
    }
}
