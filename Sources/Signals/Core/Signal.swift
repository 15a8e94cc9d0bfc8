import Platform
/// A cold stream of events: its body runs once for each subscription.
///
/// ```swift
/// let ticks = Signal<Int, Never> { observer in
///     observer.next(1)
///     observer.next(2)
///     observer.completed()
///     return nil
/// }
/// let subscription = ticks.observe(next: { print($0) })
/// ```
/// The body receives an ``Observer`` and returns what releases its resources (or `nil`). That
/// disposable runs when the subscriber disposes, and also as soon as the body sends a terminal
/// event. Bodies and handlers may run on any thread, hence the `Sendable` requirements.
public struct Signal<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let body: @Sendable (Observer<Value, Failure>) -> Disposable?

    /// For a signal that delivers through a buffer of its own per subscription
    /// (``buffer(_:on:dropped:)``): the values of the signal before that buffer, as an
    /// `AsyncSequence` with the given policy (or the buffer's own, for `nil`) and drop counter
    /// (the buffer's, for `nil`). ``values`` takes it, so that a `for await` loop has one buffer,
    /// the sequence's, and no second one behind it.
    @usableFromInline
    let unbufferedValues: (@Sendable (SignalValues<Value, Failure>.BufferingPolicy?, DropCounter?) -> SignalValues<Value, Failure>)?

    /// Creates a signal whose `body` runs for each subscription.
    @inlinable
    public init(_ body: @escaping @Sendable (Observer<Value, Failure>) -> Disposable?) {
        self.body = body
        unbufferedValues = nil
    }

    /// A signal whose `body` delivers through a buffer of its own, and whose values, as an
    /// `AsyncSequence`, come from `unbufferedValues` instead (see ``values``).
    @inlinable
    package init(
        _ body: @escaping @Sendable (Observer<Value, Failure>) -> Disposable?,
        unbufferedValues: @escaping @Sendable (SignalValues<Value, Failure>.BufferingPolicy?, DropCounter?) -> SignalValues<Value, Failure>
    ) {
        self.body = body
        self.unbufferedValues = unbufferedValues
    }

    /// Subscribes: runs the body with an observer that hands events to `action`.
    ///
    /// - Returns: the subscription. Disposing it stops delivery and releases the body's
    ///   resources; it is released by itself after a terminal event.
    @inlinable
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) -> Disposable {
        observe(values: nil, events: action)
    }

    /// Subscribes with an observer made of `values` (when given) and `events` (see
    /// ``Observer``), that delivers under `delivery`, and calls `onTerminate` after a terminal
    /// event.
    @inlinable
    func observe(
        delivery: Lock = Lock(recursive: true),
        values: (@Sendable (Value) -> Void)?,
        events: @escaping @Sendable (Event<Value, Failure>) -> Void,
        onTerminate: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        let subscription = CompositeDisposable()
        let observer = Observer<Value, Failure>(
            values: values,
            events: events,
            onTerminate: {
                subscription.dispose()
                onTerminate?()
            },
            delivery: delivery)
        subscription.add { observer.stop() }
        subscription.add(body(observer))
        return subscription
    }

    /// Subscribes with one handler per kind of event; any may be left out.
    @inlinable
    @discardableResult
    public func observe(
        next: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        observe(values: next) { event in
            switch event {
            case .next(let value): next?(value)
            case .failed(let failure): failed?(failure)
            case .completed: completed?()
            }
        }
    }

    /// Subscribes `observer` itself: its events are forwarded to it.
    @inlinable
    @discardableResult
    public func observe(_ observer: Observer<Value, Failure>) -> Disposable {
        observe { observer.on($0) }
    }
}
