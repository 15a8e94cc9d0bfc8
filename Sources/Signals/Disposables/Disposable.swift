import Platform
/// Something that can be cancelled or released: a subscription, a connection, a timer.
///
/// `dispose()` is idempotent and thread-safe: the first call releases, later calls do nothing.
public protocol Disposable: AnyObject, Sendable {
    /// Whether ``dispose()`` has been called.
    var isDisposed: Bool { get }
    /// Releases what this disposable stands for; later calls do nothing.
    func dispose()
}

/// A disposable with nothing to release (it still records that it was disposed).
public final class SimpleDisposable: Disposable {
    private let disposed: Protected<Bool>

    /// Creates one, already disposed when `disposed` is true.
    public init(disposed: Bool = false) {
        self.disposed = Protected(disposed)
    }

    public var isDisposed: Bool { disposed.withLock { $0 } }

    public func dispose() { disposed.withLock { $0 = true } }

    /// Disposes and tells whether this call was the first: a scheduler runs an action only
    /// when it claims the action's disposable, so a cancel and a run never both happen.
    public func claim() -> Bool {
        disposed.withLock { disposed in
            defer { disposed = true }
            return !disposed
        }
    }
}
