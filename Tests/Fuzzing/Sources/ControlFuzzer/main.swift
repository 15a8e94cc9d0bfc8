// libFuzzer target for `simulate --control`'s input (BoundedLineSplitter, then
// SimulatedFault.parse): whatever is typed or piped in. Each input is split at arbitrary
// points (its first byte says where), fed to one splitter that lives across all inputs, and
// every line parsed. Nothing may crash; no line may exceed the bound; a fault accepted must
// hold only values within its stated range, and say the same fault when parsed again from
// its own words.
//
// Built only by `Tests/fuzz control`, with `-sanitize=fuzzer`: the driver below is libFuzzer's.

import NMEAStream

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) var splitter = BoundedLineSplitter(maximumLength: 256)

/// The words that say `fault` again.
func words(_ fault: SimulatedFault) -> String {
    switch fault {
    case .mode(.threeD): "3d"
    case .mode(.twoD): "2d"
    case .mode: "no-fix"
    case .shift(let metres): "shift \(metres)"
    case .timeShift(let seconds): "time-shift \(seconds)"
    case .signals(let shape): "signals \(shape.rawValue)"
    case .normal: "normal"
    }
}

func check(_ line: BoundedLineSplitter.Line) {
    precondition(line.bytes.count <= splitter.maximumLength, "a line of \(line.bytes.count) bytes kept")
    guard !line.isCut else { return }
    guard case .success(let fault) = SimulatedFault.parse(String(decoding: line.bytes, as: UTF8.self)) else { return }
    switch fault {
    case .shift(let metres): precondition(metres.isFinite && abs(metres) <= SimulatedFault.maximumShift, "shift \(metres)")
    case .timeShift(let seconds): precondition(seconds.magnitude <= SimulatedFault.maximumTimeShift.magnitude, "time-shift \(seconds)")
    case .mode(let mode): precondition([.threeD, .twoD, .noFix].contains(mode), "mode \(mode)")
    case .signals, .normal: break
    }
    precondition(try! SimulatedFault.parse(words(fault)).get() == fault, "\(fault) does not read back")
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
_ = runFuzzerDriver(&argc, &argv) { start, count in
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let cut = min(Int(bytes[0]), bytes.count - 1)
    for line in splitter.take(bytes[1..<(1 + cut)]) { check(line) }
    for line in splitter.take(bytes[(1 + cut)...]) { check(line) }
    if bytes[0] & 1 == 1, let last = splitter.finish() { check(last) }
    return 0
}
