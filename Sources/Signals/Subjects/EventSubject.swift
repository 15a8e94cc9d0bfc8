/// What ``Subject`` and ``ReplaySubject`` have in common: a hot signal fed by `send`.
/// Multicasting takes any of them.
public protocol EventSubject<Value, Failure>: EventReceiver, AnyObject, Sendable {
    /// The subject as a signal.
    var signal: Signal<Value, Failure> { get }
    /// Subscribes `observer` itself, not a forwarder to it, and returns what removes it:
    /// the multicast connection's observers take one lock per event this way. The default
    /// subscribes through ``signal``.
    func attach(_ observer: Observer<Value, Failure>) -> Disposable?
}

extension EventSubject {
    @inlinable
    public func attach(_ observer: Observer<Value, Failure>) -> Disposable? {
        signal.observe(observer)
    }
}

extension Subject: EventSubject {}
extension ReplaySubject: EventSubject {}

/// A subject seen through closures made where its type is known, so that sending through
/// it runs code specialised for that type rather than a generic protocol witness.
@usableFromInline
struct SubjectHandle<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let send: @Sendable (Event<Value, Failure>) -> Void
    @usableFromInline let attach: @Sendable (Observer<Value, Failure>) -> Disposable?

    /// `attach` takes observers made for one subscription to the subject, which it is the
    /// only sender of: the library's own subjects adopt them (see ``ObserverList``).
    @inlinable
    init<S: EventSubject>(_ subject: S) where S.Value == Value, S.Failure == Failure {
        send = { subject.send($0) }
        if let plain = subject as? Subject<Value, Failure> {
            attach = { plain.attach($0, exclusive: true) }
        } else if let replaying = subject as? ReplaySubject<Value, Failure> {
            attach = { replaying.attach($0, exclusive: true) }
        } else {
            attach = { subject.attach($0) }
        }
    }
}
