import Platform
/// Runs an action the first time it is disposed, and never again.
public final class BlockDisposable: Disposable {
    private let action: Protected<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` on its first ``dispose()``.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Protected(action)
    }

    public var isDisposed: Bool { action.withLock { $0 == nil } }

    public func dispose() {
        // Taken out under the lock, run outside it: the action may dispose other things.
        let action = self.action.withLock { state in
            defer { state = nil }
            return state
        }
        action?()
    }
}
