/// A first-in, first-out queue of at most `capacity` elements in one fixed allocation: O(1)
/// to append and to take from the front (an array's `removeFirst` moves every element).
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?]
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    /// An empty buffer that holds up to `capacity` elements (at least one).
    @inlinable
    init(capacity: Int) {
        storage = Array(repeating: nil, count: max(1, capacity))
    }

    @inlinable
    var capacity: Int { storage.count }
    @inlinable
    var isEmpty: Bool { count == 0 }
    @inlinable
    var isFull: Bool { count == storage.count }

    /// Appends `element`; the buffer must not be full.
    @inlinable
    mutating func append(_ element: Element) {
        precondition(!isFull, "RingBuffer is full")
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    /// Takes the oldest element, or `nil` when empty.
    @inlinable
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    /// Empties the buffer, releasing its elements.
    @inlinable
    mutating func removeAll() {
        while removeFirst() != nil {}
    }
}
