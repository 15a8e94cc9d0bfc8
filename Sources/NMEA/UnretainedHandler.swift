/// The caller's handler of an ``NMEADecoder``, called for every event of one `feed` call
/// without a retain and a release around each call.
///
/// A closure loaded from memory (a property, a pointer) is retained for each call; one held
/// as a constant property of an object that is reached through an unretained reference is
/// not. The object is made once per ``with(_:_:)`` and lives until it returns, which is the
/// only time the handler may be called. (Not generic: a closure stored in a generic class is
/// stored at its most general form, and every call would go through a conversion thunk.)
struct UnretainedHandler {
    typealias Event = NMEADecoder.Event

    private let box: Unmanaged<Box>

    /// Calls `body` with `handler` wrapped; the wrapper must not outlive the call.
    @inline(__always)
    static func with<Result>(_ handler: (Event) -> Void, _ body: (UnretainedHandler) -> Result) -> Result {
        withoutActuallyEscaping(handler) { handler in
            let box = Box(call: handler)
            defer { withExtendedLifetime(box) {} }
            return body(UnretainedHandler(box: .passUnretained(box)))
        }
    }

    /// Calls the handler.
    @inline(__always)
    func callAsFunction(_ event: Event) {
        box._withUnsafeGuaranteedRef { $0.call(event) }
    }

    private final class Box {
        let call: (Event) -> Void
        init(call: @escaping (Event) -> Void) { self.call = call }
    }
}
