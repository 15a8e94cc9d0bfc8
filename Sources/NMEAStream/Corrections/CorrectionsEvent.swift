/// What happens to a ``CorrectionsFeed``, as it happens (return at once: it is told on the
/// feed's or a reader's queue).
public enum CorrectionsEvent: Sendable {
    /// The caster accepted the request: corrections follow.
    case streaming(caster: String)
    /// The connection to the caster failed or was lost; it is made again after the wait said.
    case interrupted(NetworkInterruption)
    /// The caster refused, for a reason a new attempt will not mend alone (tried again at the
    /// longest wait).
    case refused(NTRIPRefusal)
    /// Corrections reach the receiver named: told at the first frame written, and again
    /// after frames had been dropped.
    case writing(receiver: String)
    /// Frames for the receiver named are dropped whole rather than written, for the reason
    /// said: told when that starts (each dropped frame is counted in ``CorrectionsStatus``).
    case notWritten(receiver: String, DeviceWriteRefusal)
}
