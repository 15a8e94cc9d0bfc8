/// The observers of a subject, in the order they subscribed. The subject guards it with its
/// lock, and delivers with that lock held.
///
/// A delivery walks the list in place, without copying it (a copy costs two atomic
/// reference-count operations per event): while one runs, a handler may subscribe (the new
/// observer is appended, past the end of that delivery) or dispose (its entry is only marked,
/// and removed once no delivery runs), and a terminal event retires the whole list until then.
///
/// An observer added as exclusive has this subject as its only sender (it was made for a
/// subscription to the subject): the subject's lock already serialises its events, so it is
/// delivered to without taking its own lock, and its handlers are released here, under the
/// same lock, when it is removed.
@usableFromInline
struct ObserverList<Value: Sendable, Failure: Error> {
    /// `token` is 0 once the entry is removed during a delivery; `unretained` is `observer`
    /// again, for delivery without reference counting (the list holds the observers).
    @usableFromInline typealias Entry = (token: Int, observer: Observer<Value, Failure>, unretained: Unmanaged<Observer<Value, Failure>>)

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var nextToken = 0
    @usableFromInline var marked = 0
    /// How many deliveries are walking `entries` (re-entrant sends nest).
    @usableFromInline var deliveries = 0
    /// Entries of a list that a terminal event ended while deliveries still walked it.
    @usableFromInline var retired: [Entry] = []

    @inlinable
    init() {}

    @inlinable
    var count: Int { entries.count - marked }

    /// Adds `observer` and returns its token.
    @inlinable
    mutating func append(_ observer: Observer<Value, Failure>, exclusive: Bool) -> Int {
        if exclusive { observer.adoptSender() }
        nextToken += 1
        entries.append((nextToken, observer, .passUnretained(observer)))
        return nextToken
    }

    /// Removes the observer of `token`, releasing its handlers if the subject was its only
    /// sender.
    @usableFromInline
    mutating func remove(_ token: Int) {
        guard let index = entries.firstIndex(where: { $0.token == token }) else { return }
        entries[index].observer.releaseAdopted()
        if deliveries > 0 {
            entries[index].token = 0
            marked += 1
        } else {
            entries.remove(at: index)
        }
    }

    /// Empties the list for a terminal event, and returns what it held.
    @inlinable
    mutating func removeAll() -> [Entry] {
        let all = entries.filter { $0.token != 0 }
        if deliveries > 0 { retired += entries }
        entries = []
        marked = 0
        return all
    }

    /// The observer at `index` for the delivery that started with `count` entries: `nil`
    /// past the end or for an entry removed since.
    @inlinable
    func observer(at index: Int, of count: Int) -> Unmanaged<Observer<Value, Failure>>?? {
        guard index < count, index < entries.count else { return nil }
        return entries[index].token == 0 ? .some(nil) : entries[index].unretained
    }

    /// Ends a delivery; the last one to end removes the marked entries.
    @inlinable
    mutating func endDelivery() {
        deliveries -= 1
        guard deliveries == 0, marked > 0 || !retired.isEmpty else { return }
        if marked > 0 { entries.removeAll { $0.token == 0 } }
        marked = 0
        retired = []
    }

    /// Delivers `event` to every observer of `entries` (a terminal event, to a list that
    /// this subject no longer walks).
    @inlinable
    static func deliver(_ event: Event<Value, Failure>, to entries: [Entry]) {
        for entry in entries { entry.observer.sendFromAdoptedSender(event) }
    }
}
