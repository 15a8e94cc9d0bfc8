/// Takes gpsd's own JSON lines (`{"class":"VERSION",…}`, `DEVICES`, `WATCH`…) out of what an
/// upstream gpsd sends under `?WATCH={"raw":2}`, leaving the receiver's bytes as it read them:
/// a line that starts with `{"class":"` is gpsd's and is dropped through its line feed. Pure,
/// and cut anywhere: the same bytes in any chunks give the same output.
struct GPSDRawFilter: Sendable {
    private static let marker = Array(#"{"class":""#.utf8)

    /// Whether the next byte starts a line.
    private var atLineStart = true
    /// How much of the marker the current line has matched so far.
    private var matched = 0
    /// Whether the current line is gpsd's, being dropped.
    private var dropping = false

    /// The bytes of `chunk` that are the receiver's, appended to `output`.
    mutating func filter(_ chunk: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        for byte in chunk {
            if dropping {
                if byte == 0x0A {
                    dropping = false
                    atLineStart = true
                }
                continue
            }
            if atLineStart || matched > 0 {
                if byte == Self.marker[matched] {
                    matched += 1
                    atLineStart = false
                    if matched == Self.marker.count {
                        matched = 0
                        dropping = true
                    }
                    continue
                }
                // Not gpsd's: what looked like its start is the receiver's.
                output.append(contentsOf: Self.marker[..<matched])
                matched = 0
            }
            output.append(byte)
            atLineStart = byte == 0x0A
        }
    }
}
