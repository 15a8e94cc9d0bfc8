/// What ``Subject`` and ``ReplaySubject`` have in common: a hot signal fed by `send`.
/// Multicasting takes any of them.
public protocol EventSubject<Value, Failure>: AnyObject, Sendable {
    /// The values sent.
    associatedtype Value: Sendable
    /// The failure sent.
    associatedtype Failure: Error
    /// The subject as a signal.
    var signal: Signal<Value, Failure> { get }
    /// Sends `event` to the subject's observers.
    func send(_ event: Event<Value, Failure>)
}

extension Subject: EventSubject {}
extension ReplaySubject: EventSubject {}
