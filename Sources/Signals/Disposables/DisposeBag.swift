/// Owns disposables and disposes them all when it is released (or when ``dispose()`` is called).
///
/// Keep one in an object whose lifetime should bound its subscriptions:
/// ```swift
/// final class Logger {
///     private let bag = DisposeBag()
///     init(fixes: Signal<Fix, GPSError>) {
///         fixes.observe(next: { print($0) }).dispose(in: bag)
///     }
/// }
/// ```
public final class DisposeBag: Disposable {
    private let compound = CompositeDisposable()

    /// Creates an empty bag.
    public init() {}

    deinit { compound.dispose() }

    public var isDisposed: Bool { compound.isDisposed }

    /// Adds a disposable (disposed at once when the bag was disposed already).
    public func add(_ disposable: Disposable) { compound.add(disposable) }

    /// Disposes everything in the bag now; later additions are disposed at once.
    public func dispose() { compound.dispose() }
}

extension Disposable {
    /// Puts this disposable in `bag`, to be disposed with it.
    public func dispose(in bag: DisposeBag) { bag.add(self) }
}
