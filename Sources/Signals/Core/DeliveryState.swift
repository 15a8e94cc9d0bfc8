/// State that only one subscription's event handler reads and writes.
///
/// An ``Observer`` delivers one event at a time under its delivery lock, so a handler's state
/// needs no lock of its own: each delivery sees the writes of the one before. Never share it
/// with a second handler, a timer or a dispose action: use ``Protected`` for those.
final class DeliveryState<State>: @unchecked Sendable {
    var value: State

    init(_ value: State) { self.value = value }
}
