// The names Signals had before it took ReactiveKit's vocabulary (see CONTRIBUTING), kept for
// one release so that code written against them still builds, with a fix-it to the new name.

/// Renamed ``BlockDisposable``.
@available(*, deprecated, renamed: "BlockDisposable")
public typealias ActionDisposable = BlockDisposable

/// Renamed ``CompositeDisposable``.
@available(*, deprecated, renamed: "CompositeDisposable")
public typealias CompoundDisposable = CompositeDisposable

/// Renamed ``SimpleDisposable``.
@available(*, deprecated, renamed: "SimpleDisposable")
public typealias NopDisposable = SimpleDisposable

/// Renamed ``Property``.
@available(*, deprecated, renamed: "Property")
public typealias MutableProperty = Property

extension EventReceiver {
    /// Renamed ``next(_:)``.
    @available(*, deprecated, renamed: "next(_:)")
    public func send(_ value: Value) { next(value) }

    /// Renamed ``on(_:)``.
    @available(*, deprecated, renamed: "on(_:)")
    public func send(_ event: Event<Value, Failure>) { on(event) }

    /// Renamed ``failed(_:)``.
    @available(*, deprecated, renamed: "failed(_:)")
    public func send(error: Failure) { failed(error) }

    /// Renamed ``completed()``.
    @available(*, deprecated, renamed: "completed()")
    public func sendCompleted() { completed() }
}

extension Disposable {
    /// Renamed ``dispose(in:)``.
    @available(*, deprecated, renamed: "dispose(in:)")
    public func disposed(by bag: DisposeBag) { dispose(in: bag) }
}

extension Signal {
    /// Renamed ``observe(next:failed:completed:)``.
    @available(*, deprecated, renamed: "observe(next:failed:completed:)")
    @discardableResult
    public func observe(next: (@Sendable (Value) -> Void)? = nil, error: @escaping @Sendable (Failure) -> Void,
                        completed: (@Sendable () -> Void)? = nil) -> Disposable {
        observe(next: next, failed: error, completed: completed)
    }

    /// Renamed ``share(limit:)``.
    @available(*, deprecated, renamed: "share(limit:)")
    public func share(replay: Int) -> Signal { share(limit: replay) }

    /// Renamed ``receive(on:)``.
    @available(*, deprecated, renamed: "receive(on:)")
    public func deliver(on scheduler: some Scheduler) -> Signal { receive(on: scheduler) }

    /// Renamed ``doOn(event:next:failed:completed:terminated:disposed:)``.
    @available(*, deprecated, renamed: "doOn(next:)")
    public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal { doOn(next: action) }

    /// Renamed ``flatMapError(_:)``.
    @available(*, deprecated, renamed: "flatMapError(_:)")
    public func `catch`<NewFailure: Error>(_ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>) -> Signal<Value, NewFailure> {
        flatMapError(handler)
    }

    /// Renamed ``replaceElements(with:)``.
    @available(*, deprecated, renamed: "replaceElements(with:)")
    public func mapReplace<Other: Sendable>(_ value: Other) -> Signal<Other, Failure> { replaceElements(with: value) }

    /// Renamed ``removeDuplicates()``.
    @available(*, deprecated, renamed: "removeDuplicates()")
    public func distinctUntilChanged() -> Signal where Value: Equatable { removeDuplicates() }

    /// Renamed ``removeDuplicates(by:)``.
    @available(*, deprecated, renamed: "removeDuplicates(by:)")
    public func distinctUntilChanged(by isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        removeDuplicates(by: isEquivalent)
    }

    /// Renamed ``failed(_:)``.
    @available(*, deprecated, renamed: "failed(_:)")
    public static func fail(_ error: Failure) -> Signal { failed(error) }
}

extension Event {
    /// Renamed ``failed(_:)``. (A pattern `case .error` cannot be forwarded: rename it to
    /// `case .failed`.)
    @available(*, deprecated, renamed: "failed")
    public static func error(_ failure: Failure) -> Event { .failed(failure) }
}
