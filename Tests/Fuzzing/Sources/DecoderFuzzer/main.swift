// libFuzzer target for NMEADecoder. Each input is fed to a fresh decoder twice, whole and
// split into chunks the input itself chooses, and the two runs must hand out the same events
// (the framer's promise: the output does not depend on how the input was split). Every run
// must follow the event grammar below, and its statistics must agree with its events. A
// decoder that lives across all inputs, never finished, is fed every input too: with
// libFuzzer's `-rss_limit_mb`, that checks that what it holds between sentences stays bounded.
//
// Built only by `Tests/fuzz`, with `-sanitize=fuzzer`: the driver below is libFuzzer's.

import NMEAStream

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The first byte of an input picks the framer's settings and the chunk sizes.
struct Plan {
    var configuration: NMEAFramer.Configuration
    var chunkSizes: [Int]

    init(_ byte: UInt8) {
        configuration = NMEAFramer.Configuration(acceptsMissingChecksum: byte & 1 == 1)
        switch byte >> 1 & 3 {
        case 0: chunkSizes = [1]
        case 1: chunkSizes = [2, 3, 5, 7]
        case 2: chunkSizes = [Int(byte >> 3) + 1]
        default: chunkSizes = [64, 1, 255, 17]
        }
    }
}

/// An event as a plain value, to compare two runs.
enum Recorded: Equatable {
    case sentence([UInt8])
    case frame([UInt8])
    case rejected(RejectedInput)
    case fix(Fix)
    case satellites(SatelliteView)
}

/// What one run handed out, and where it broke the grammar.
struct Run {
    var events: [Recorded] = []
    var fixes = 0
    var views = 0
    var frames = 0
    var violations: [String] = []
    /// The address and field count of the last sentence, while its field rejects may follow.
    var lastSentence: (address: String, fields: Int)?
    var finished = false

    mutating func record(_ event: NMEADecoder.Event, maximumLength: Int) {
        if finished { violations.append("an event after finish") }
        switch event {
        case .sentence(let raw):
            lastSentence = (raw.address.text, raw.fieldCount)
            if raw.bytes.count > maximumLength { violations.append("a sentence of \(raw.bytes.count) bytes") }
            events.append(.sentence(raw.bytes))
        case .ubx(let frame):
            // A field of its message that could not be read follows it, named by byte offset.
            lastSentence = (frame.kind.description, frame.payload.count)
            frames += 1
            let bytes = frame.bytes
            if bytes.count != frame.payload.count + 8 || bytes.prefix(2) != [0xB5, 0x62] { violations.append("a UBX frame of \(bytes.count) bytes") }
            _ = UBXMessage.decode(frame)
            events.append(.frame(bytes))
        case .rejected(let reject):
            if reject.bytes.count > maximumLength { violations.append("a reject holding \(reject.bytes.count) bytes") }
            if reject.reason == .malformedField, let field = reject.fieldIndex, field > 0 {
                // A malformed field follows its own sentence, before anything else.
                guard let sentence = lastSentence, sentence.address == reject.address, field <= sentence.fields else {
                    violations.append("a field reject not after its sentence: \(reject)")
                    break
                }
            } else {
                lastSentence = nil
            }
            events.append(.rejected(reject))
        case .epoch(let epoch):
            lastSentence = nil
            views += epoch.views.count
            if epoch.fix == nil, epoch.views.isEmpty { violations.append("an epoch with neither fix nor view") }
            for view in epoch.views { events.append(.satellites(view)) }
            guard let fix = epoch.fix else { break }
            fixes += 1
            if (fix.latitude == nil) != (fix.longitude == nil) { violations.append("half a position") }
            if let latitude = fix.latitude, !(abs(latitude) <= 90) { violations.append("latitude \(latitude)") }
            if let longitude = fix.longitude, !(abs(longitude) <= 180) { violations.append("longitude \(longitude)") }
            if fix.mode == .noFix, fix.latitude != nil { violations.append("a position without a fix") }
            events.append(.fix(fix))
        }
    }
}

func run(_ bytes: UnsafeRawBufferPointer, _ plan: Plan, chunked: Bool) -> Run {
    let decoder = NMEADecoder(framer: plan.configuration)
    let maximum = plan.configuration.maximumSentenceLength
    var run = Run()
    var offset = 0
    var index = 0
    while offset < bytes.count {
        let size = chunked ? plan.chunkSizes[index % plan.chunkSizes.count] : bytes.count
        let end = min(bytes.count, offset + size)
        decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { run.record($0, maximumLength: maximum) }
        offset = end
        index += 1
    }
    decoder.finish { run.record($0, maximumLength: maximum) }
    run.finished = true
    let statistics = decoder.statistics
    if statistics.bytes != bytes.count { run.violations.append("\(statistics.bytes) bytes counted of \(bytes.count)") }
    if statistics.fixes != run.fixes { run.violations.append("\(statistics.fixes) fixes counted, \(run.fixes) handed out") }
    if statistics.ubxFrameCount != run.frames { run.violations.append("\(statistics.ubxFrameCount) UBX frames counted, \(run.frames) handed out") }
    if statistics.satelliteViews != run.views { run.violations.append("\(statistics.satelliteViews) views counted, \(run.views) handed out") }
    return run
}

/// Lives across every input: nothing it holds may grow with the input it has seen.
nonisolated(unsafe) let longLived = NMEADecoder()

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
_ = runFuzzerDriver(&argc, &argv) { start, count in
    guard let start, count > 0 else { return 0 }
    let plan = Plan(start[0])
    let bytes = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    let whole = run(bytes, plan, chunked: false)
    let chunked = run(bytes, plan, chunked: true)
    for violation in whole.violations + chunked.violations { fatalError("grammar: \(violation)") }
    if whole.events != chunked.events {
        let first = zip(whole.events, chunked.events).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(whole.events.count, chunked.events.count)
        fatalError("""
            chunks \(plan.chunkSizes) change the output at event \(first): \
            \(first < whole.events.count ? "\(whole.events[first])" : "none") vs \
            \(first < chunked.events.count ? "\(chunked.events[first])" : "none")
            """)
    }
    longLived.feed(bytes) { _ in }
    return 0
}
