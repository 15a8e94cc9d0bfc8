import Platform

/// A value that a test's handlers change and the test waits on: each change wakes the waits,
/// which ask their condition again, so nothing is asked on a clock.
public final class Watched<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value
    private let changes = ChangeNotifier()

    public init(_ value: Value) { self.value = value }

    /// The value now.
    public var current: Value { lock.withLock { value } }

    /// Changes the value under the lock, then wakes the waits.
    @discardableResult
    public func change<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let result = try lock.withLock { try body(&value) }
        changes.changed()
        return result
    }

    /// Waits until `condition` holds for the value, asked now and after each change, at most
    /// `seconds`: whether it held.
    public func wait(seconds: Double = 10, until condition: (Value) -> Bool) -> Bool {
        changes.wait(seconds: seconds) { condition(current) }
    }
}
