extension Signal {
    /// Sends `values`, then completes.
    public static func just(_ values: Value...) -> Signal {
        from(values)
    }

    /// Sends the values of `sequence`, then completes.
    public static func from<Values: Sequence & Sendable>(_ sequence: Values) -> Signal where Values.Element == Value {
        Signal { observer in
            for value in sequence {
                guard observer.isActive else { return nil }
                observer.next(value)
            }
            observer.completed()
            return nil
        }
    }

    /// Completes at once.
    public static var empty: Signal {
        Signal { observer in
            observer.completed()
            return nil
        }
    }

    /// Never sends anything.
    public static var never: Signal { Signal { _ in nil } }

    /// Fails at once with `error`.
    public static func failed(_ error: Failure) -> Signal {
        Signal { observer in
            observer.failed(error)
            return nil
        }
    }

    /// Makes the signal to run only when someone subscribes, once per subscription.
    public static func deferred(_ make: @escaping @Sendable () -> Signal) -> Signal {
        Signal { observer in make().observe(observer) }
    }
}
