import Platform
/// Holds one inner disposable at a time: setting a new one disposes the old one.
///
/// Once the serial disposable is disposed, whatever is set afterwards is disposed at once.
public final class SerialDisposable: Disposable {
    private struct State {
        var inner: Disposable?
        var disposed = false
    }

    private let state = Protected(State())

    /// Creates one holding `inner`, if any.
    public init(_ inner: Disposable? = nil) {
        state.withLock { $0.inner = inner }
    }

    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The inner disposable. Setting it disposes the previous one (outside the lock), or the
    /// new one when this serial disposable is already disposed.
    public var inner: Disposable? {
        get { state.withLock { $0.inner } }
        set {
            let (old, disposeNew) = state.withLock { state -> (Disposable?, Bool) in
                if state.disposed { return (nil, true) }
                defer { state.inner = newValue }
                return (state.inner, false)
            }
            if old !== newValue { old?.dispose() }
            if disposeNew { newValue?.dispose() }
        }
    }

    public func dispose() {
        let inner = state.withLock { state -> Disposable? in
            guard !state.disposed else { return nil }
            state.disposed = true
            defer { state.inner = nil }
            return state.inner
        }
        inner?.dispose()
    }
}
