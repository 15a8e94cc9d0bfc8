// libFuzzer target for what a fleet subscriber takes of an MQTT message (FleetReportFilter):
// everything in a message comes from whoever can publish to the broker. Each input is a topic
// and a payload; the filter must never crash, must deliver only a one-line report of the
// vehicle its topic names with values a receiver can give, and must stay within its bounds
// over every input it has seen (one filter lives across all of them). Every rendering the
// subscriber prints (text, CSV, GPX) is made of each delivered report too, since they are
// where a hostile value would trap or forge a line.
//
// Built only by `Tests/fuzz report`, with `-sanitize=fuzzer`: the driver below is libFuzzer's.

import Fleet
import FoundationEssentials
import NMEAStream

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) var filter = FleetReportFilter()
let decoder = JSONDecoder()

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
_ = runFuzzerDriver(&argc, &argv) { start, count in
    guard let start, count > 0 else { return 0 }
    // The first byte: how many of the next bytes are the topic's vehicle level.
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let nameLength = min(Int(bytes[0]), bytes.count - 1)
    let name = String(decoding: bytes[1..<(1 + nameLength)], as: UTF8.self)
    let payload = Array(bytes[(1 + nameLength)...])
    let topic = "fleet/" + name + (bytes[0] & 1 == 0 ? "/tpv" : "/sky")
    // The name may hold a `/`: the vehicle is the level before the last.
    let levels = topic.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    let vehicle = String(decoding: levels[levels.count - 2], as: UTF8.self)
    // Twice: the second is a repeat, or the same refusal.
    for _ in 0..<2 {
        guard case .deliver(let report) = filter.take(topic: topic, payload: payload, decoder: decoder) else { continue }
        precondition(report.vehicle == vehicle, "vehicle \(report.vehicle) from topic \(topic)")
        precondition(!report.json.utf8.contains(where: { $0 < 0x20 }), "a control byte in \(report.json)")
        if let fix = report.fix {
            if let latitude = fix.latitude { precondition(abs(latitude) <= 90) }
            if let longitude = fix.longitude { precondition(abs(longitude) <= 180) }
            let lines = [printable(report.vehicle) + "  " + "\(fix.time.map { "\($0)" } ?? "")",
                         CSV.cell(report.vehicle) + "," + CSV.row(fix), GPX.point(fix, name: report.vehicle) ?? ""]
            for line in lines {
                precondition(!line.dropLast().unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }, "a control character in \(line.debugDescription)")
            }
        }
    }
    precondition(filter.vehicleCount <= FleetReportFilter.maximumVehicles)
    return 0
}
