import Dispatch
import Signals

/// The watchdog for a silent source (``StaleLimit``): a timer on the reader's executor that
/// closes a device or connection that has sent nothing for the limit.
extension NMEAReader {
    func armStaleWatch() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard !isFinished, let deadline = staleWatch.arm(at: now, fixes: fixesSoFar) else { return }
        checkStale(at: deadline, now: now)
    }

    /// Checks the watch at `deadline` (monotonic nanoseconds), in place of any check due.
    fileprivate func checkStale(at deadline: UInt64, now: UInt64) {
        staleTimer?.dispose()
        staleTimer = executor.schedule(after: .nanoseconds(Int64(deadline &- min(deadline, now)))) { [weak self] in
            self?.checkStale()
        }
    }

    func disarmStaleWatch() {
        staleWatch.disarm()
        staleTimer?.dispose()
        staleTimer = nil
    }

    fileprivate var fixesSoFar: Int { decoder?.statistics.fixes ?? 0 }

    fileprivate func checkStale() {
        let now = DispatchTime.now().uptimeNanoseconds
        switch staleWatch.check(at: now, fixes: fixesSoFar) {
        case .idle: break
        case .checkAgain(let deadline): checkStale(at: deadline, now: now)
        case .silent(let seconds): wentSilent(seconds)
        }
    }

    /// Closes the silent source and fails: its release is what ``stop()`` then waits for, so
    /// that the next reader of the device opens it only once it is closed.
    fileprivate func wentSilent(_ seconds: Double) {
        guard !isFinished, let bytes else { return }
        disarmStaleWatch()
        bytes.stop()
        closedRelease = bytes.released
        end(.silent(source: sourceName, seconds: seconds))
    }
}
