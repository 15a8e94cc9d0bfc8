/// The pending timers of one subscription: disposing cancels those not yet run.
///
/// Timers count as disposed once they have run (see ``Scheduler``). Finished timers are
/// dropped as new ones come, so a long-lived subscription keeps only
/// the ones still pending.
final class ScheduledWork: Disposable, @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`; `nil` once disposed.
    private var pending: [Disposable]? = []
    private var pruneAt = 32

    var isDisposed: Bool { lock.withLock { pending == nil } }

    /// Keeps `timer` to cancel it on dispose (cancels it at once when already disposed).
    func add(_ timer: Disposable) {
        let added = lock.withLock { () -> Bool in
            guard pending != nil else { return false }
            if pending!.count >= pruneAt {
                pending!.removeAll { $0.isDisposed }
                pruneAt = max(32, pending!.count * 2)
            }
            pending!.append(timer)
            return true
        }
        if !added { timer.dispose() }
    }

    func dispose() {
        let timers = lock.withLock { () -> [Disposable] in
            defer { pending = nil }
            return pending ?? []
        }
        for timer in timers { timer.dispose() }
    }
}
