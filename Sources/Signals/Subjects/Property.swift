import Platform
/// A current value that can be read, written and observed.
///
/// Its ``signal`` sends the current value at once to each new observer, then every new value.
/// It never fails and never completes while the property lives.
public final class Property<Value: Sendable>: @unchecked Sendable {
    private let subject = Subject<Value, Never>(capacity: 1)
    // Held while a new value is stored and sent, so observers see the values in the order they
    // were stored; recursive, so a handler may read or set the property.
    private let lock = Lock(recursive: true)
    private var current: Value  // Guarded by `lock`.

    /// Creates a property holding `initial`.
    public init(_ initial: Value) {
        current = initial
        subject.next(initial)
    }

    /// The current value. Setting it sends the new value to the observers.
    public var value: Value {
        get { lock.withLock { current } }
        set {
            lock.withLock {
                current = newValue
                subject.next(newValue)
            }
        }
    }

    /// Changes the value with `transform`, atomically against other `modify` calls, and sends it.
    public func modify(_ transform: (inout Value) -> Void) {
        lock.withLock {
            transform(&current)
            subject.next(current)
        }
    }

    /// The current value, then every change.
    public var signal: Signal<Value, Never> { subject.signal }
}
