/// When a live source that has stopped sending counts as gone: a receiver whose USB bridge
/// hangs, or that browned out, keeps its device open and sends nothing; a network peer that
/// vanished without closing its connection (power lost, out of Wi-Fi range) leaves it open for
/// hours. A reader with a limit ends with ``GPSError/silent(source:seconds:)`` once its source
/// has sent nothing for that long, and closes it; whoever shares it (``GPSMonitor``'s
/// subscribers, `nmeastream serve`'s clients) is told, and may open it again.
///
/// Silence is counted from the last bytes read; before the first, from the opening (for a
/// serial port at ``SerialSpeed/automatic``, from the speed found: the hunt has its own end).
/// Logs and bytes in memory are never stale.
public enum StaleLimit: Sendable, Hashable {
    /// Never: the source may stay silent for ever.
    case never
    /// After this long without a byte.
    case after(Duration)
    /// After ``StaleWatch/cyclesAllowed`` of the receiver's own cycles (the time between its
    /// fixes, measured as it reads), and never less than ``StaleWatch/shortestAutomatic``;
    /// ``StaleWatch/untilCycleKnown`` until a cycle has been measured.
    case automatic
}
