extension Signal {
    /// Sends the running result of combining each value into an accumulator, starting from
    /// `initial` (not sent itself).
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { observer in
            let accumulator = DeliveryState(initial)
            return observe { event in
                observer.on(event.map { value in
                    accumulator.value = next(accumulator.value, value)
                    return accumulator.value
                })
            }
        }
    }
}
