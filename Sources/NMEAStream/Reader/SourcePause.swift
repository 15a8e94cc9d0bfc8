/// A byte source's pause (``ByteSource/pause()``), confined to the reader's executor: whether
/// the source is paused, and the step of its reading that waits for the resume.
struct SourcePause {
    private var isPaused = false
    private var parked: (@Sendable () -> Void)?

    /// Whether `step` must wait; when it must, it is kept for ``resume()``.
    mutating func parks(_ step: @escaping @Sendable () -> Void) -> Bool {
        guard isPaused else { return false }
        parked = step
        return true
    }

    mutating func pause() { isPaused = true }

    /// Ends the pause, and gives the step that waited, if any, for the caller to run.
    mutating func resume() -> (@Sendable () -> Void)? {
        isPaused = false
        defer { parked = nil }
        return parked
    }

    /// Forgets the step that waited (the source stopped).
    mutating func cancel() { parked = nil }
}
