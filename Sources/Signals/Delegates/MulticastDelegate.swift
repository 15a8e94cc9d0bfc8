import Platform
import Synchronization

/// A list of delegates held weakly, for a type that tells several listeners: the one
/// ``primary`` delegate (a type's `delegate` property), then the added ones, in the order they
/// came.
///
/// ```swift
/// protocol ReceiverDelegate: AnyObject { func receiverDidConnect() }
///
/// let delegates = MulticastDelegate<any ReceiverDelegate>()
/// delegates.add(logger)
/// delegates.callAll { $0.receiverDidConnect() }
/// ```
/// A delegate is known by the object itself (`===`), never by its `ObjectIdentifier` alone:
/// the identifier of a freed object is reused for the next one at once, so a stale identifier
/// could match a stranger. Entries whose object was freed are pruned as the list is used.
/// ``callAll(_:)`` calls a snapshot of the live delegates, outside the lock: a delegate may
/// remove itself, or add another, from inside its callback (the change applies to the next
/// call). Thread-safe.
///
/// A sender that calls its delegates for every event of a busy stream need not take the lock
/// for each: it keeps ``live()`` and takes it again only when ``changeCount`` has moved (one
/// atomic load per event).
public final class MulticastDelegate<Delegate>: Sendable {
    private struct Entry {
        weak var object: AnyObject?
    }

    private struct Entries {
        var primary = Entry(object: nil)
        var added: [Entry] = []

        /// The primary's entry, then the added ones.
        var all: [Entry] { primary.object == nil ? added : [primary] + added }
    }

    private let entries = Protected(Entries())
    private let changes = Atomic<Int>(0)

    /// Creates an empty list. `Delegate` must be a class or a class-bound protocol type.
    public init() {}

    /// The delegate called first, in a slot of its own (held weakly, as the others): setting it
    /// replaces the one before; `nil` when there is none, or it was freed.
    public var primary: Delegate? {
        get { entries.withLock { $0.primary.object }.map { $0 as! Delegate } }
        set {
            let object = newValue.map(Self.object)
            change { $0.primary = Entry(object: object) }
        }
    }

    /// Adds `delegate`, unless it is in the list already. The list does not keep it alive.
    public func add(_ delegate: Delegate) {
        let object = Self.object(delegate)
        change { entries in
            entries.added.removeAll { $0.object == nil }
            if !entries.added.contains(where: { $0.object === object }) { entries.added.append(Entry(object: object)) }
        }
    }

    /// Removes `delegate` if it was added (the ``primary`` is changed by setting it).
    public func remove(_ delegate: Delegate) {
        let object = Self.object(delegate)
        change { $0.added.removeAll { $0.object == nil || $0.object === object } }
    }

    /// Whether `delegate` is in the list (as the primary or an added one).
    public func contains(_ delegate: Delegate) -> Bool {
        let object = Self.object(delegate)
        return entries.withLock { $0.all.contains { $0.object === object } }
    }

    /// The number of live delegates.
    public var count: Int { entries.withLock { $0.all.count { $0.object != nil } } }

    /// Whether no live delegate is left.
    public var isEmpty: Bool { count == 0 }

    /// How many times the list was changed (set, added to, removed from): read with one atomic
    /// load, for a sender that keeps ``live()`` until it moves. A change is counted after it
    /// is made, so a ``live()`` read after the count is at least as new.
    public var changeCount: Int { changes.load(ordering: .acquiring) }

    /// The live delegates now, the primary first, held strongly by the array.
    public func live() -> [Delegate] {
        entries.withLock { $0.all }.compactMap { $0.object.map { $0 as! Delegate } }
    }

    /// Calls `body` with each live delegate, the primary first, then the added ones in the
    /// order they were added.
    ///
    /// No allocation unless a primary is set or the list changes during the calls, and one lock.
    public func callAll(_ body: (Delegate) -> Void) {
        guard let snapshot = entries.withLock({ entries in entries.primary.object == nil && entries.added.isEmpty ? nil : entries.all })
        else { return }
        var sawFreed = false
        for entry in snapshot {
            // The strong reference keeps each delegate alive through its call.
            guard let object = entry.object else {
                sawFreed = true
                continue
            }
            body(object as! Delegate)
        }
        if sawFreed { entries.withLock { $0.added.removeAll { $0.object == nil } } }
    }

    private func change(_ body: (inout Entries) -> Void) {
        entries.withLock { entries in
            body(&entries)
            // Inside the lock: whoever sees the new count reads the new list.
            changes.add(1, ordering: .releasing)
        }
    }

    private static func object(_ delegate: Delegate) -> AnyObject {
        guard type(of: delegate as Any) is AnyClass else {
            preconditionFailure("MulticastDelegate holds class instances only, not \(type(of: delegate))")
        }
        return delegate as AnyObject
    }
}
