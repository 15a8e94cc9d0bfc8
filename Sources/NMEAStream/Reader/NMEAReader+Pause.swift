import Signals

/// Paused by a full subscriber (``SenderPause``): a recorded log's reader stops after the event
/// under way, holds the rest of its chunk, and goes on once there is room.
extension NMEAReader {
    /// The reader's ``SenderPause`` changed to `paused` (a subscriber's lossless buffer is
    /// full, or has room again). On the reader's executor (the buffer filled in the reader's
    /// own call) it applies at once: the decoder stops after the event under way, and the rest
    /// of the chunk waits in the reader. From another thread, a job applies the pause's state
    /// as it is when the job runs, so that changes told from several threads end right.
    package func pauseChanged(_ paused: Bool) {
        if executor.isCurrent { return applyPause(paused) }
        executor.schedule { [self] in applyPause(pause?.isPaused ?? false) }
    }

    fileprivate func applyPause(_ paused: Bool) {
        guard paused != isSourcePaused, !isFinished else { return }
        isSourcePaused = paused
        if paused {
            if isDecoding { decoder?.stopFeeding() }
            bytes?.pause()
            return
        }
        // Going on: what waited goes first, and may fill a buffer again.
        resumed?()
        if !isSourcePaused, !held.isEmpty {
            let bytes = held
            held = []
            bytes.withUnsafeBytes { feedDecoder($0, receivedAt: heldReceivedAt) }
        }
        if !isSourcePaused { bytes?.resume() }
    }
}
