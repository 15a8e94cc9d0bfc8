import Foundation
@testable import NMEAStream

/// Collects what one subscription to a signal receives.
final class SignalRecorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValues: [Value] = []
    private var storedError: GPSError?
    private var storedCompleted = false
    private var storedThreads = Set<String>()

    var values: [Value] { lock.withLock { storedValues } }
    var error: GPSError? { lock.withLock { storedError } }
    var completed: Bool { lock.withLock { storedCompleted } }
    var ended: Bool { lock.withLock { storedCompleted || storedError != nil } }

    /// Subscribes to `signal`; `onValue` runs in the subscriber's handler.
    func observe(_ signal: Signal<Value, GPSError>, onValue: @escaping @Sendable (Value) -> Void = { _ in }) -> Disposable {
        signal.observe { [self] event in
            switch event {
            case .next(let value):
                lock.withLock { storedValues.append(value) }
                onValue(value)
            case .error(let error): lock.withLock { storedError = error }
            case .completed: lock.withLock { storedCompleted = true }
            }
        }
    }
}

/// Waits until `condition` holds, at most `seconds`.
func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}
