import Platform
import Dispatch
import NMEAStream

/// A progress bar on standard error for reading a file of known size, redrawn in place at
/// most ten times a second; only when standard error is a terminal.
final class ProgressBar {
    private let total: Int
    private var done = 0
    private var lastDraw: UInt64 = 0
    private let start = DispatchTime.now().uptimeNanoseconds

    /// A bar for `path`, or `nil` when standard error is not a terminal or the size is unknown
    /// (standard input, a pipe).
    init?(path: String) {
        guard Syscall.isTerminal(Syscall.standardError), path != "-" else { return nil }
        guard let status = try? Syscall.status(path), status.kind == .regular, status.size > 0 else { return nil }
        total = status.size
    }

    /// Counts `bytes` more read.
    func advance(_ bytes: Int) {
        done += bytes
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        draw(now)
    }

    /// Removes the bar.
    func finish() {
        write("\r\u{1B}[K")
    }

    private func draw(_ now: UInt64) {
        let fraction = Double(done) / Double(total)
        let width = 30
        let filled = min(width, Int(fraction * Double(width)))
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds / 1e6 : 0
        write("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
              + fixedPoint(fraction * 100, decimals: 0) + "%  " + fixedPoint(rate, decimals: 1) + " MB/s\u{1B}[K")
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { try? Syscall.writeAll(Syscall.standardError, UnsafeRawBufferPointer($0)) }
    }
}
