extension Signal {
    /// The values as an `AsyncSequence` that throws the signal's failure (a plain `for await`
    /// when `Failure` is `Never`), buffered without limit so that none is lost while the
    /// consumer is busy.
    ///
    /// ```swift
    /// for await fix in reader.fixes.values { print(fix) }
    /// ```
    /// The subscription starts when this property is read and ends when the signal terminates
    /// or when the sequence ends (the consuming task is cancelled, or the iteration stops and
    /// the sequence is released): that disposes the subscription.
    public var values: SignalValues<Value, Failure> { values(bufferingPolicy: .unbounded) }

    /// ``values`` with the buffering policy of your choice: `.bufferingNewest(1)` keeps only
    /// the latest value while the consumer is busy (a live position display), for example.
    /// The end of the signal, and its failure, are never dropped by the policy.
    public func values(bufferingPolicy: SignalValues<Value, Failure>.BufferingPolicy) -> SignalValues<Value, Failure> {
        let failure = Protected<Failure?>(nil)
        let stream = AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = observe { event in
                switch event {
                case .next(let value):
                    continuation.yield(value)
                case .error(let error):
                    failure.withLock { $0 = error }
                    continuation.finish()
                case .completed:
                    continuation.finish()
                }
            }
            continuation.onTermination = { _ in subscription.dispose() }
        }
        return SignalValues(stream: stream, failure: failure)
    }
}

/// A signal's values as an `AsyncSequence`: see ``Signal/values``. Iterate it once.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// How values wait while the consumer is busy.
    public typealias BufferingPolicy = AsyncStream<Value>.Continuation.BufferingPolicy

    fileprivate let stream: AsyncStream<Value>
    fileprivate let failure: Protected<Failure?>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), failure: failure)
    }

    /// Gives the values in order, then `nil`, or throws the signal's failure at its end.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var base: AsyncStream<Value>.Iterator
        fileprivate let failure: Protected<Failure?>

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
            if let value = await base.next(isolation: actor) { return value }
            // Thrown once; afterwards the sequence is simply over.
            if let error = failure.withLock({ failure in
                defer { failure = nil }
                return failure
            }) {
                throw error
            }
            return nil
        }

        public mutating func next() async throws(Failure) -> Value? {
            try await next(isolation: nil)
        }
    }
}
