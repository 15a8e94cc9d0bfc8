import Signals
import Platform

/// Lets callbacks made before their owner exists reach it once it does, weakly: a connection's
/// handlers are given at its creation, inside the init of the object that will hold the
/// connection in a `let`, before that object can be captured.
final class LaterOwner<Owner: AnyObject & Sendable>: Sendable {
    private struct Reference {
        weak var owner: Owner?
    }

    private let reference = Protected(Reference())

    /// The owner, once set and while it lives; `nil` before and after.
    var owner: Owner? { reference.withLock { $0.owner } }

    /// Sets the owner (once its init has made it whole).
    func set(_ owner: Owner) { reference.withLock { $0.owner = owner } }
}
