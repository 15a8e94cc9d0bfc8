import Platform
/// A list of delegates held weakly, for a type that tells several listeners.
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
public final class MulticastDelegate<Delegate>: Sendable {
    private struct Entry {
        weak var object: AnyObject?
    }

    private let entries = Protected<[Entry]>([])

    /// Creates an empty list. `Delegate` must be a class or a class-bound protocol type.
    public init() {}

    /// Adds `delegate`, unless it is in the list already. The list does not keep it alive.
    public func add(_ delegate: Delegate) {
        let object = Self.object(delegate)
        entries.withLock { entries in
            entries.removeAll { $0.object == nil }
            if !entries.contains(where: { $0.object === object }) { entries.append(Entry(object: object)) }
        }
    }

    /// Removes `delegate` if it is in the list.
    public func remove(_ delegate: Delegate) {
        let object = Self.object(delegate)
        entries.withLock { $0.removeAll { $0.object == nil || $0.object === object } }
    }

    /// Whether `delegate` is in the list.
    public func contains(_ delegate: Delegate) -> Bool {
        let object = Self.object(delegate)
        return entries.withLock { $0.contains { $0.object === object } }
    }

    /// The number of live delegates.
    public var count: Int { entries.withLock { $0.count { $0.object != nil } } }

    /// Whether no live delegate is left.
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with each live delegate, in the order they were added.
    ///
    /// On every event of a busy source: no allocation, one lock, and a snapshot that is the
    /// list itself (a copy only if the list changes during the calls).
    public func callAll(_ body: (Delegate) -> Void) {
        guard let snapshot = entries.withLock({ $0.isEmpty ? nil : $0 }) else { return }
        var sawFreed = false
        for entry in snapshot {
            // The strong reference keeps each delegate alive through its call.
            guard let object = entry.object else {
                sawFreed = true
                continue
            }
            body(object as! Delegate)
        }
        if sawFreed { entries.withLock { $0.removeAll { $0.object == nil } } }
    }

    private static func object(_ delegate: Delegate) -> AnyObject {
        guard type(of: delegate as Any) is AnyClass else {
            preconditionFailure("MulticastDelegate holds class instances only, not \(type(of: delegate))")
        }
        return delegate as AnyObject
    }
}
