import Platform
/// The pending timers of one subscription: disposing cancels those not yet run.
///
/// Timers count as disposed once they have run (see ``Scheduler``). Finished timers are
/// dropped as new ones come, so a long-lived subscription keeps only
/// the ones still pending.
final class ScheduledWork: Disposable, Sendable {
    private struct State {
        /// `nil` once disposed.
        var pending: [Disposable]? = []
        var pruneAt = 32
    }

    private let state = Protected(State())

    var isDisposed: Bool { state.withLock { $0.pending == nil } }

    /// Keeps `timer` to cancel it on dispose (cancels it at once when already disposed).
    func add(_ timer: Disposable) {
        let added = state.withLock { state -> Bool in
            guard state.pending != nil else { return false }
            if state.pending!.count >= state.pruneAt {
                state.pending!.removeAll { $0.isDisposed }
                state.pruneAt = max(32, state.pending!.count * 2)
            }
            state.pending!.append(timer)
            return true
        }
        if !added { timer.dispose() }
    }

    func dispose() {
        let timers = state.withLock { state -> [Disposable] in
            defer { state.pending = nil }
            return state.pending ?? []
        }
        for timer in timers { timer.dispose() }
    }
}
