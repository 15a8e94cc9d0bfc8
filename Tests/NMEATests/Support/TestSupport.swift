import Foundation
import NMEA

/// `$BODY*hh\r\n` with the right checksum.
func nmea(_ body: String, ending: String = "\r\n", start: String = "$") -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "\(start)\(body)*\(hex.count == 1 ? "0" + hex : hex)\(ending)"
}

/// Everything a decoder handed out, copied into plain values.
struct Decoded {
    var sentences: [String] = []
    var decoded: [NMEASentence] = []
    var fixes: [Fix] = []
    /// The epochs, each with its sky (its views) and fix.
    var epochs: [Epoch] = []
    var views: [SatelliteView] = []
    var rejects: [RejectedInput] = []
    /// The UBX frames, whole.
    var frames: [[UInt8]] = []
    var statistics = NMEAStatistics()
}

/// Runs `bytes` through a fresh decoder in chunks of the given sizes (cycled), then finishes.
func decode(_ bytes: [UInt8], chunkSizes: [Int] = [65_536], framer: NMEAFramer.Configuration = .init(),
            dates: DateResolver.Configuration = .init()) -> Decoded {
    let decoder = NMEADecoder(framer: framer, dates: dates)
    var result = Decoded()
    let handle: (NMEADecoder.Event) -> Void = { event in
        switch event {
        case .sentence(let raw):
            result.sentences.append(raw.text)
            if let sentence = NMEASentence.decode(raw) { result.decoded.append(sentence) }
        case .epoch(let epoch):
            result.epochs.append(epoch)
            result.views += epoch.views
            if let fix = epoch.fix { result.fixes.append(fix) }
        case .ubx(let frame): result.frames.append(frame.bytes)
        case .rejected(let reject): result.rejects.append(reject)
        }
    }
    var offset = 0
    var index = 0
    bytes.withUnsafeBytes { buffer in
        while offset < buffer.count {
            let size = max(1, chunkSizes[index % chunkSizes.count])
            let end = min(buffer.count, offset + size)
            decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), handle)
            offset = end
            index += 1
        }
    }
    decoder.finish(handle)
    result.statistics = decoder.statistics
    return result
}

func decode(_ text: String, chunkSizes: [Int] = [65_536], framer: NMEAFramer.Configuration = .init(),
            dates: DateResolver.Configuration = .init()) -> Decoded {
    decode(Array(text.utf8), chunkSizes: chunkSizes, framer: framer, dates: dates)
}

/// Decodes one sentence body (checksum added) into its typed value.
func sentence(_ body: String) throws -> NMEASentence? {
    let result = decode(nmea(body))
    if let reject = result.rejects.first { throw RejectError(reject: reject) }
    return result.decoded.first
}

struct RejectError: Error {
    var reject: RejectedInput
}

/// A fixture shipped with the tests.
func fixture(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
        throw FixtureMissing(name: name)
    }
    return Array(try Data(contentsOf: url))
}

struct FixtureMissing: Error {
    var name: String
}
