import ArgumentParser

/// A length of time given on the command line, in seconds (`5`, `0.5`): a finite number from
/// 0 to ``maximum``. Anything else (`-1`, `nan`, `inf`, `1e300`) is a usage error before it
/// is used, never a trap when it is turned into a timer's nanoseconds.
struct Seconds: ExpressibleByArgument, Sendable, Comparable, CustomStringConvertible {
    /// The longest allowed: 366 days.
    static let maximum = 31_622_400.0

    /// The seconds.
    let value: Double

    init(_ value: Double) {
        precondition(value.isFinite && (0...Self.maximum).contains(value), "seconds out of range")
        self.value = value
    }

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite, (0...Self.maximum).contains(value) else { return nil }
        self.value = value
    }

    /// The same length as a `Duration`, to the millisecond.
    var duration: Duration { .milliseconds(Int64((value * 1000).rounded())) }

    var description: String { value == value.rounded() ? "\(Int(value))" : "\(value)" }

    static var defaultCompletionKind: CompletionKind { .default }

    static func < (left: Seconds, right: Seconds) -> Bool { left.value < right.value }
}
