/// The observers of a subject, in the order they subscribed. The subject guards it with its
/// lock, and delivers with that lock held.
///
/// An observer added as exclusive has this subject as its only sender (it was made for a
/// subscription to the subject): the subject's lock already serialises its events, so it is
/// delivered to without taking its own lock, and its handlers are released here, under the
/// same lock, when it is removed.
@usableFromInline
struct ObserverList<Value: Sendable, Failure: Error> {
    @usableFromInline var entries: [(token: Int, observer: Observer<Value, Failure>)] = []
    @usableFromInline var nextToken = 0

    @inlinable
    init() {}

    @inlinable
    var count: Int { entries.count }

    /// Adds `observer` and returns its token.
    @inlinable
    mutating func append(_ observer: Observer<Value, Failure>, exclusive: Bool) -> Int {
        if exclusive { observer.adoptSender() }
        nextToken += 1
        entries.append((nextToken, observer))
        return nextToken
    }

    /// Removes the observer of `token`, releasing its handlers if the subject was its only
    /// sender.
    @usableFromInline
    mutating func remove(_ token: Int) {
        guard let index = entries.firstIndex(where: { $0.token == token }) else { return }
        entries.remove(at: index).observer.releaseAdopted()
    }

    /// Delivers `event` to every observer of `current`, a copy taken before the delivery (a
    /// handler may subscribe or dispose while it runs).
    @inlinable
    static func deliver(_ event: Event<Value, Failure>, to current: [(token: Int, observer: Observer<Value, Failure>)]) {
        current.withUnsafeBufferPointer { entries in
            for index in entries.indices { entries[index].observer.sendFromAdoptedSender(event) }
        }
    }
}
