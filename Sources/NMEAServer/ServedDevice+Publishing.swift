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
    func watchers(sent streams: WatchedStreams) -> [ClientConnection] {
        state.withLock { $0.watch.watchers(sent: streams) }
    }

    /// An epoch: its sky (its views as one SKY, as gpsd sends it) then its TPV, in one write;
    /// kept for `?POLL`.
    func publish(_ epoch: Epoch) {
        let (recovered, samples, source) = state.withLock { state in
            state.latest.take(epoch)
            let samples = epoch.fix.map { state.timeSampling.take($0) }
            if epoch.fix != nil {
                state.seenNMEA = true
                state.watch.heard()
            }
            guard state.failure != nil else { return (false, samples, state.source) }
            state.failure = nil
            return (true, samples, state.source)
        }
        if recovered { events?(.deviceRecovered(path: path)) }
        if let serial = samples?.serial { publish(serial, kind: .serialTime) }
        if let pulse = samples?.pulse { publish(pulse.sample, kind: .pulse, quantizationError: pulse.quantizationError) }
        let clients = watchers(sent: .reports)
        guard !clients.isEmpty else { return }
        var lines = ByteBufferAllocator().buffer(capacity: 2048)
        var writer = JSONWriter()
        GPSDJSON.write(epoch, device: path, source: source, reusing: &writer) { _, report in Self.appendLine(report, to: &lines) }
        fanOut(lines, to: clients)
    }

    /// To clients that watch with `pps`: a time sample as `TOFF` (serial time, precision -1:
    /// half a second, what a report's time is worth) or `PPS` (a pulse, -20: about a
    /// microsecond), as gpsd sends them.
    func publish(_ sample: TimeSample, kind: TimeOffsetReport.Kind, quantizationError: Int? = nil) {
        let clients = watchers(sent: .timing)
        guard !clients.isEmpty else { return }
        let real = sample.trueTime, clock = sample.systemTime.posixTime
        let report = TimeOffsetReport(kind: kind, device: path, realSeconds: real.seconds, realNanoseconds: real.nanoseconds,
                                      clockSeconds: clock.seconds, clockNanoseconds: clock.nanoseconds,
                                      precision: kind == .pulse ? -20 : -1, quantizationError: quantizationError)
        fanOut(ByteBufferAllocator().buffer(string: ServerReply.timeOffset(report).line), to: clients)
    }

    /// To clients in NMEA mode or raw mode 1: each valid sentence as received.
    func publish(_ sentence: ReceivedSentence) {
        state.withLock { $0.seenNMEA = true }
        let clients = watchers(sent: .sentences)
        guard !clients.isEmpty else { return }
        var line = ByteBufferAllocator().buffer(string: sentence.text)
        line.writeBytes([0x0D, 0x0A])
        fanOut(line, to: clients, coalescing: true)
    }

    /// To clients in raw mode 2: the device's bytes unchanged.
    func publish(_ bytes: [UInt8]) {
        let clients = watchers(sent: .bytes)
        guard !clients.isEmpty else { return }
        fanOut(ByteBufferAllocator().buffer(bytes: bytes), to: clients, coalescing: true)
    }

    /// `writer`'s object as one line of gpsd's output (CR LF: python3-gps parses nothing
    /// with LF alone).
    private static func appendLine(_ writer: JSONWriter, to buffer: inout ByteBuffer) {
        writer.withBytes { _ = buffer.writeBytes($0) }
        buffer.writeBytes([0x0D, 0x0A])
    }

    /// Hands `buffer` to `clients`: one buffer shared by all, and one task per event loop
    /// (each with that loop's clients), so that a report costs one wake-up per loop, not per
    /// client, and each client's reports keep their order; the clients of the loop the device
    /// is read on (the caller's) are written at once, with no task.
    ///
    /// `coalescing`: a sentence or a read's bytes, one of several of a chunk: flushed with the
    /// others (``ClientConnection/deliver(_:coalescing:)``); a report is flushed at once.
    func fanOut(_ buffer: ByteBuffer, to clients: [ClientConnection], coalescing: Bool = false) {
        var groups: [(loop: EventLoop, clients: [ClientConnection])] = []
        for client in clients {
            if let index = groups.firstIndex(where: { $0.loop === client.eventLoop }) {
                groups[index].clients.append(client)
            } else {
                groups.append((client.eventLoop, [client]))
            }
        }
        // The other loops first, so that they write while this one does.
        var here: [ClientConnection] = []
        for group in groups {
            let clients = group.clients
            if group.loop.inEventLoop {
                here = clients
                continue
            }
            group.loop.execute {
                for client in clients { client.deliver(buffer, coalescing: coalescing) }
            }
        }
        // The device is read on this loop: its clients are written now, on the thread that
        // read it.
        for client in here { client.deliver(buffer, coalescing: coalescing) }
    }
}
