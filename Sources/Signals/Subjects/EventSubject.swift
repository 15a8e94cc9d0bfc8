import Platform
/// A hot signal fed by hand (``EventReceiver/on(_:)``), as ``Subject`` is: multicasting takes any of them.
public protocol EventSubject<Value, Failure>: EventReceiver, AnyObject, Sendable {
    /// The subject as a signal.
    var signal: Signal<Value, Failure> { get }
}

extension Subject: EventSubject {}

/// A subject seen through closures made where its type is known, so that sending through
/// it runs code specialised for that type rather than a generic protocol witness.
@usableFromInline
struct SubjectHandle<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let send: @Sendable (Event<Value, Failure>) -> Void
    /// Attaches an observer; `true` to give it the subject's latest kept value first (only the
    /// library's own ``Subject`` keeps one, see ``Subject/init(keepingLatest:)``).
    @usableFromInline let attach: @Sendable (Observer<Value, Failure>, Bool) -> Disposable?
    /// The lock that the library's own ``Subject`` delivers under (`nil` for other subjects):
    /// an observer whose events all go to this subject may deliver under it too.
    @usableFromInline let lock: Lock?

    /// `attach` takes observers made for one subscription to the subject, which it is the
    /// only sender of: the library's own ``Subject`` adopts them (see ``ObserverList``).
    @inlinable
    init<S: EventSubject>(_ subject: S) where S.Value == Value, S.Failure == Failure {
        send = { subject.on($0) }
        if let known = subject as? Subject<Value, Failure> {
            attach = { known.attach($0, exclusive: true, replayingLatest: $1) }
            lock = known.lock
        } else {
            attach = { observer, _ in subject.signal.observe(observer) }
            lock = nil
        }
    }
}
