import Platform

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
    private let changed: @Sendable (_ paused: Bool) -> Void

    /// A pause that tells `changed` when the sender is to pause (`true`, at the first hold)
    /// and to go on (`false`, when the last is let go). Called under the pause's lock, so the
    /// calls keep their order: it must only hand the change on.
    package init(_ changed: @escaping @Sendable (_ paused: Bool) -> Void) { self.changed = changed }

    /// Whether some buffer holds the sender now.
    package var isPaused: Bool { holds.withLock { $0 > 0 } }

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
            if holds == 1 { changed(true) }
        }
    }

    /// A buffer lets it go.
    @usableFromInline
    package func release() {
        holds.withLock { holds in
            holds -= 1
            if holds == 0 { changed(false) }
        }
    }
}
