/// A first-in, first-out queue of at most `capacity` elements in one fixed allocation: O(1)
/// to append and to take from the front (an array's `removeFirst` moves every element).
struct RingBuffer<Element> {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    /// An empty buffer that holds up to `capacity` elements (at least one).
    init(capacity: Int) {
        storage = Array(repeating: nil, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == storage.count }

    /// Appends `element`; the buffer must not be full.
    mutating func append(_ element: Element) {
        precondition(!isFull, "RingBuffer is full")
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    /// Takes the oldest element, or `nil` when empty.
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    /// Empties the buffer, releasing its elements.
    mutating func removeAll() {
        while removeFirst() != nil {}
    }
}
