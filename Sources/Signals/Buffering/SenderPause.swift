import Platform
import Synchronization

/// A sender that can stop producing for a while (a recorded log, read at its own pace), held
/// back by its lossless buffers without a thread made to wait: a buffer that is full keeps
/// what the sender still sends (the rest of what it was producing) and holds it paused, and
/// lets go once it has taken its values down to half its capacity. The sender is paused while
/// any buffer holds it, as swift-async-algorithms' channels suspend their producers.
///
/// How far past its capacity a buffer goes is what the sender sends between a hold and its
/// pause: for a reader, the rest of one read's events.
@usableFromInline
package final class SenderPause: Sendable {
    private let holds = Protected(0)
    /// Whether `holds` is above zero, set under the lock with it: read without the lock (a
    /// reader asks for every event it sends).
    private let paused = Atomic<Bool>(false)
    private let changed: @Sendable (_ paused: Bool) -> Void

    /// A pause that tells `changed` when the sender is to pause (`true`, at the first hold)
    /// and to go on (`false`, when the last is let go). Called under the pause's lock, so the
    /// calls keep their order: it must only hand the change on.
    package init(_ changed: @escaping @Sendable (_ paused: Bool) -> Void) { self.changed = changed }

    /// Whether some buffer holds the sender now (no lock taken).
    package var isPaused: Bool { paused.load(ordering: .relaxed) }

    /// Tells `body` whether the sender is paused now, in order with the changes told (a new
    /// sender learns where things stand, and no change overtakes it). `body` must only hand
    /// it on.
    package func tellState(_ body: (_ paused: Bool) -> Void) {
        holds.withLock { body($0 > 0) }
    }

    /// A buffer holds the sender.
    @usableFromInline
    package func hold() {
        holds.withLock { holds in
            holds += 1
            if holds == 1 {
                paused.store(true, ordering: .relaxed)
                changed(true)
            }
        }
    }

    /// A buffer lets it go.
    @usableFromInline
    package func release() {
        holds.withLock { holds in
            holds -= 1
            if holds == 0 {
                paused.store(false, ordering: .relaxed)
                changed(false)
            }
        }
    }
}
