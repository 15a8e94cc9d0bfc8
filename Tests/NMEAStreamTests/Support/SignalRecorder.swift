import Platform
import Foundation
import TestSupport
@testable import NMEAStream

/// Collects what one subscription to a signal receives.
final class SignalRecorder<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var storedValues: [Value] = []
    private var storedError: GPSError?
    private var storedCompleted = false
    private var storedThreads = Set<String>()
    private let changes = ChangeNotifier()

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
            case .failed(let error): lock.withLock { storedError = error }
            case .completed: lock.withLock { storedCompleted = true }
            }
            changes.changed()
        }
    }

    /// Waits until `condition` holds, asked now and after each event, at most `seconds`.
    func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        changes.wait(seconds: seconds, until: condition)
    }
}
