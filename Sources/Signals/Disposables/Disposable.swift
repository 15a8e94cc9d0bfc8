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
public final class NopDisposable: Disposable {
    private let disposed = Protected(false)

    /// Creates one.
    public init() {}

    public var isDisposed: Bool { disposed.withLock { $0 } }

    public func dispose() { disposed.withLock { $0 = true } }
}
