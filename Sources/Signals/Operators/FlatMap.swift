import Platform
/// How ``Signal/flatMap(_:_:)`` combines the inner signals it makes.
public enum FlattenStrategy: Sendable {
    /// Subscribes every inner signal at once and forwards all their values as they come.
    case merge
    /// Subscribes the inner signals one after the other, each when the one before completed;
    /// the later ones wait in a queue.
    case concat
    /// Subscribes only the newest inner signal, disposing the one before.
    case latest
}

extension Signal {
    /// Makes an inner signal of each value with `transform` and forwards the inner signals'
    /// values, combined by `strategy`.
    ///
    /// Completes when this signal and every inner signal it started have completed; fails as
    /// soon as this signal or an inner one fails. Disposing disposes every inner subscription.
    public func flatMap<Inner: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Signal<Inner, Failure>
    ) -> Signal<Inner, Failure> {
        Signal<Inner, Failure> { observer in
            let flattener = Flattener(strategy: strategy, observer: observer)
            let outer = observe { event in
                switch event {
                case .next(let value): flattener.add(transform(value))
                case .failed(let error): observer.failed(error)
                case .completed: flattener.outerCompleted()
                }
            }
            return CompositeDisposable([outer, BlockDisposable { flattener.dispose() }])
        }
    }
}

/// The inner subscriptions of one ``Signal/flatMap(_:_:)`` subscription.
///
/// Its state is guarded by `lock`, which is also held while an inner event is forwarded, so
/// that the check "is this inner signal still the current one" and the send are one step
/// (recursive, so a handler may make the signals send again). Inner signals are subscribed
/// and disposed outside the lock.
private final class Flattener<Inner: Sendable, Failure: Error>: @unchecked Sendable {
    private let strategy: FlattenStrategy
    private let observer: Observer<Inner, Failure>
    private let lock = Lock(recursive: true)
    // Guarded by `lock`.
    private var active: [Int: Disposable?] = [:]
    private var waiting: [(token: Int, signal: Signal<Inner, Failure>)] = []
    private var nextToken = 0
    private var outerDone = false
    private var disposed = false

    init(strategy: FlattenStrategy, observer: Observer<Inner, Failure>) {
        self.strategy = strategy
        self.observer = observer
    }

    func add(_ signal: Signal<Inner, Failure>) {
        var replaced: [Disposable] = []
        let token = lock.withLock { () -> Int? in
            guard !disposed else { return nil }
            nextToken += 1
            switch strategy {
            case .merge:
                break
            case .concat:
                guard active.isEmpty else {
                    waiting.append((nextToken, signal))
                    return nil
                }
            case .latest:
                replaced = active.values.compactMap { $0 }
                active.removeAll()
            }
            active[nextToken] = .some(nil)
            return nextToken
        }
        for subscription in replaced { subscription.dispose() }
        if let token { subscribe(signal, token) }
    }

    func outerCompleted() {
        lock.withLock {
            outerDone = true
            if active.isEmpty && waiting.isEmpty { observer.completed() }
        }
    }

    func dispose() {
        let subscriptions = lock.withLock { () -> [Disposable] in
            disposed = true
            waiting.removeAll()
            defer { active.removeAll() }
            return active.values.compactMap { $0 }
        }
        for subscription in subscriptions { subscription.dispose() }
    }

    private func subscribe(_ signal: Signal<Inner, Failure>, _ token: Int) {
        let subscription = signal.observe { [self] event in innerEvent(event, token) }
        let isCurrent = lock.withLock { () -> Bool in
            guard active[token] != nil else { return false }
            active[token] = subscription
            return true
        }
        if !isCurrent { subscription.dispose() }
    }

    private func innerEvent(_ event: Event<Inner, Failure>, _ token: Int) {
        var next: (token: Int, signal: Signal<Inner, Failure>)?
        lock.withLock {
            guard active[token] != nil else { return }
            guard case .completed = event else { return observer.on(event) }
            active[token] = nil
            if strategy == .concat, active.isEmpty, !waiting.isEmpty {
                next = waiting.removeFirst()
                active[next!.token] = .some(nil)
            } else if outerDone, active.isEmpty, waiting.isEmpty {
                observer.completed()
            }
        }
        if let next { subscribe(next.signal, next.token) }
    }
}
