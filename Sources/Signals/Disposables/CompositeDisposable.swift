import Platform
/// Disposes many disposables together.
///
/// Anything added after the compound was disposed is disposed at once. Children are disposed
/// outside the compound's lock, in the order they were added, so a child may touch the
/// compound (or dispose it again) while it is being disposed.
public final class CompositeDisposable: Disposable {
    private struct State {
        var children: [Disposable]? = []
    }

    private let state = Protected(State())

    /// Creates a compound holding `disposables`.
    public init(_ disposables: [Disposable] = []) {
        state.withLock { $0.children = disposables }
    }

    public var isDisposed: Bool { state.withLock { $0.children == nil } }

    /// Adds `disposable`, or disposes it at once when the compound is already disposed.
    public func add(_ disposable: Disposable?) {
        guard let disposable else { return }
        let added = state.withLock { state -> Bool in
            guard state.children != nil else { return false }
            state.children!.append(disposable)
            return true
        }
        if !added { disposable.dispose() }
    }

    /// Adds an action to run on disposal (at once when already disposed).
    public func add(_ action: @escaping @Sendable () -> Void) {
        add(BlockDisposable(action))
    }

    /// Disposes every child, once.
    public func dispose() {
        let children = state.withLock { state in
            defer { state.children = nil }
            return state.children ?? []
        }
        for child in children { child.dispose() }
    }

    /// Adds `disposable` (the `+=` spelling of ``add(_:)-(Disposable?)``).
    public static func += (compound: CompositeDisposable, disposable: Disposable?) {
        compound.add(disposable)
    }
}
