import Dispatch
import GPSDProtocol
import NIOCore
import NMEAStream
import TimeService
import Platform

/// The device's one publisher: each epoch, time report, sentence and byte chunk rendered once
/// and written to every watcher that asked for it (watchers on one event loop share one
/// buffer).
extension ServedDevice {
    /// The watchers sent `streams`.
    func watchers(sent streams: WatchedStreams) -> [any DeviceWatcher] {
        state.withLock { $0.watch.watchers(sent: streams) }
    }

    /// An epoch: its sky (its views as one SKY, as gpsd sends it) then its TPV, in one write;
    /// kept for `?POLL`.
    func publish(_ epoch: Epoch) {
        let (recovered, source) = state.withLock { state -> ([any DeviceWatcher]?, String?) in
            state.latest.take(epoch)
            if epoch.fix != nil {
                state.seenNMEA = true
                state.watch.heard()
            }
            guard state.failure != nil else { return (nil, state.source) }
            state.failure = nil
            return (state.watch.watchers, state.source)
        }
        if let watchers = recovered {
            // Back after a failure or a silence: announced as gpsd announces a device
            // activated again, with the time it was opened again.
            events?(.deviceRecovered(path: path))
            announce(to: watchers)
        }
        let watchers = watchers(sent: .reports)
        guard !watchers.isEmpty else { return }
        var lines = ByteBufferAllocator().buffer(capacity: 2048)
        var writer = JSONWriter()
        GPSDJSON.write(epoch, device: path, source: source, reusing: &writer) { _, report in Self.appendLine(report, to: &lines) }
        fanOut(lines, to: watchers)
    }

    /// To watchers that watch with `pps`: a time sample (``TimeReports``) as `TOFF` (serial time, precision -1:
    /// half a second, what a report's time is worth) or `PPS` (a pulse, -20: about a
    /// microsecond), as gpsd sends them.
    func publish(_ sample: TimeSample, kind: TimeOffsetReport.Kind, quantizationError: Int? = nil) {
        let watchers = watchers(sent: .timing)
        guard !watchers.isEmpty else { return }
        let real = sample.trueTime, clock = sample.systemTime.posixTime
        let report = TimeOffsetReport(kind: kind, device: path, realSeconds: real.seconds, realNanoseconds: real.nanoseconds,
                                      clockSeconds: clock.seconds, clockNanoseconds: clock.nanoseconds,
                                      precision: kind == .pulse ? -20 : -1, quantizationError: quantizationError)
        fanOut(ByteBufferAllocator().buffer(string: ServerReply.timeOffset(report).line), to: watchers)
    }

    /// To watchers in NMEA mode or raw mode 1 (and the NMEA feeds): each valid sentence as received.
    func publish(_ sentence: ReceivedSentence) {
        state.withLock { $0.seenNMEA = true }
        let watchers = watchers(sent: .sentences)
        guard !watchers.isEmpty else { return }
        var line = ByteBufferAllocator().buffer(string: sentence.text)
        line.writeBytes([0x0D, 0x0A])
        fanOut(line, to: watchers, coalescing: true)
    }

    /// To watchers in raw mode 2: the device's bytes unchanged.
    func publish(_ bytes: [UInt8]) {
        let watchers = watchers(sent: .bytes)
        guard !watchers.isEmpty else { return }
        fanOut(ByteBufferAllocator().buffer(bytes: bytes), to: watchers, coalescing: true)
    }

    /// `writer`'s object as one line of gpsd's output (CR LF: python3-gps parses nothing
    /// with LF alone).
    private static func appendLine(_ writer: JSONWriter, to buffer: inout ByteBuffer) {
        writer.withBytes { _ = buffer.writeBytes($0) }
        buffer.writeBytes([0x0D, 0x0A])
    }

    /// Hands `buffer` to `watchers`: one buffer shared by all, and one task per event loop
    /// (each with that loop's watchers), so that a report costs one wake-up per loop, not per
    /// watcher, and each watcher's reports keep their order; the watchers of the loop the
    /// device is read on (the caller's), and those of no loop, are handed it at once, with no
    /// task.
    ///
    /// `coalescing`: a sentence or a read's bytes, one of several of a chunk: flushed with the
    /// others (``ClientConnection/deliver(_:coalescing:)``); a report is flushed at once.
    func fanOut(_ buffer: ByteBuffer, to watchers: [any DeviceWatcher], coalescing: Bool = false) {
        var groups: [(loop: EventLoop, watchers: [any DeviceWatcher])] = []
        var here: [any DeviceWatcher] = []
        for watcher in watchers {
            guard let loop = watcher.eventLoop else {
                here.append(watcher)
                continue
            }
            if let index = groups.firstIndex(where: { $0.loop === loop }) {
                groups[index].watchers.append(watcher)
            } else {
                groups.append((loop, [watcher]))
            }
        }
        // The other loops first, so that they write while this one does.
        for group in groups {
            let watchers = group.watchers
            if group.loop.inEventLoop {
                here += watchers
                continue
            }
            // Not once the server's loops have shut down (an epoch the reader finishes as its
            // device closes, on the reader's queue): their watchers are gone with them.
            timers.whileRunning {
                group.loop.execute {
                    for watcher in watchers { watcher.deliver(buffer, coalescing: coalescing) }
                }
            }
        }
        // The device is read on this loop: its watchers are written now, on the thread that
        // read it.
        for watcher in here { watcher.deliver(buffer, coalescing: coalescing) }
    }
}
