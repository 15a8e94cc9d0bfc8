import Dispatch

extension Signal {
    /// Subscribes with handlers that run on the main actor, in order: each event is handed to
    /// the main queue, and the compiler knows where the handlers run, so they may touch
    /// main-actor state (a view model, a label) with no hop of their own.
    ///
    /// ```swift
    /// @MainActor final class Model {
    ///     var position = "-"
    ///     func watch(_ gps: GPSMonitor) -> Disposable {
    ///         gps.fixes.observeOnMainActor(next: { [weak self] fix in
    ///             self?.position = "\(fix.latitude ?? .nan) \(fix.longitude ?? .nan)"
    ///         })
    ///     }
    /// }
    /// ```
    /// Nothing is delivered after the subscription is disposed, even an event already on its
    /// way to the main queue. The main queue must be running (an app, `dispatchMain()`, or
    /// an `async` main).
    ///
    /// The events reach the main queue through a buffer of `capacity` values
    /// (``BufferPolicy/newest(capacity:)``): while the main actor is busy (a modal dialog, a
    /// long layout), a sender faster than it pushes out the oldest waiting values, each
    /// counted in `dropped`, and never fills the main queue; the end of the stream is never
    /// dropped.
    @discardableResult
    public func observeOnMainActor(
        capacity: Int = 256,
        dropped: DropCounter? = nil,
        next: (@MainActor @Sendable (Value) -> Void)? = nil,
        failed: (@MainActor @Sendable (Failure) -> Void)? = nil,
        completed: (@MainActor @Sendable () -> Void)? = nil
    ) -> Disposable {
        buffer(.newest(capacity: capacity), on: QueueScheduler(queue: .main), dropped: dropped).observe { event in
            MainActor.assumeIsolated {
                switch event {
                case .next(let value): next?(value)
                case .failed(let failure): failed?(failure)
                case .completed: completed?()
                }
            }
        }
    }
}
