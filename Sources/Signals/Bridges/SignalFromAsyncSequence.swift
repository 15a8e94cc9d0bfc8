extension Signal {
    /// A signal that iterates `sequence` in a new task for each subscription: each element
    /// is sent as a value, the end as completion, a thrown error as the failure. Disposing
    /// cancels the task; nothing is sent after that.
    public init<Values: AsyncSequence & Sendable>(_ sequence: Values) where Values.Element == Value, Values.Failure == Failure {
        self.init { observer in
            let task = Task {
                do throws(Failure) {
                    for try await value in sequence {
                        guard observer.isActive else { return }
                        observer.next(value)
                    }
                    observer.completed()
                } catch {
                    observer.failed(error)
                }
            }
            return BlockDisposable { task.cancel() }
        }
    }
}
