#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import TestSupport
import Testing
@testable import NMEAStream

/// Writing to a receiver over TCP (corrections to a serial server, a position to a caster):
/// whole strings in order, a bounded backlog against a peer that never reads, and a peer that
/// has gone told as a dropped write, never as a signal that ends the process.
@Suite("writing to a TCP receiver", .mayBlock)
struct TCPReceiverWriteTests {
    /// A listening socket on a free loopback port.
    final class Listener {
        private var fd: Int32
        let port: Int

        init() throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            port = bindToFreeLoopbackPort(fd)
            try #require(port > 0 && listen(fd, 4) == 0)
        }

        /// The next connection, accepted (within `seconds`).
        func accept(seconds: Double = 10) -> Int32? {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return nil }
            let peer = Glibc.accept(fd, nil, nil)
            return peer >= 0 ? peer : nil
        }

        /// Listens no more: a connection tried again is refused.
        func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }

        deinit { close() }
    }

    /// A started reader of `listener`'s port, once its connection is made and accepted.
    func connectedReader(_ listener: Listener) throws -> (NMEAReader, ReaderRecorder, Int32) {
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: listener.port)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        let peer = try #require(listener.accept())
        try #require(recorder.wait { recorder.connections.count == 1 })
        return (reader, recorder, peer)
    }

    /// Runs `body` with a reader connected to a new listener and the peer's end, then stops
    /// the reader and closes the peer.
    func withConnection(_ body: (NMEAReader, Int32) throws -> Void) throws {
        let listener = try Listener()
        let (reader, _, peer) = try connectedReader(listener)
        defer {
            reader.stop()
            close(peer)
        }
        try body(reader, peer)
    }

    @Test("bytes written reach the peer whole and in order")
    func inOrder() throws {
        try withConnection { reader, peer in
            let strings = (0..<50).map { index in [UInt8](repeating: UInt8(index), count: 300) }
            let outcomes = strings.map { string in reader.onExecutorAndWait { reader.writeToDevice(string) } }
            #expect(outcomes.allSatisfy { $0 == .written })
            #expect(readBytes(from: peer, count: 50 * 300) == strings.flatMap { $0 })
        }
    }

    @Test("a peer that never reads: strings wait whole up to the bound, then each is dropped whole")
    func backlogBound() throws {
        try withConnection { reader, _ in
            // More than the kernel's buffers on both sides can take (a few megabytes).
            let string = [UInt8](repeating: 0xD3, count: 1024)
            var written = 0
            var refused: DeviceWriteOutcome?
            while written < 256 * 1024 * 1024 {
                let outcome = reader.onExecutorAndWait { reader.writeToDevice(string) }
                guard outcome == .written else {
                    refused = outcome
                    break
                }
                written += string.count
            }
            #expect(refused == .dropped(.backlogFull), "after \(written) bytes: \(String(describing: refused))")
        }
    }

    @Test("a peer that has gone: writes are dropped (failed, or no connection), the loss is said, the process lives")
    func peerGone() throws {
        let listener = try Listener()
        let (reader, recorder, peer) = try connectedReader(listener)
        defer { reader.stop() }
        listener.close()
        // Reset rather than closed: a write after it fails with ECONNRESET or EPIPE.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(peer, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(peer)
        #expect(recorder.wait { !recorder.interruptions.isEmpty })
        let outcome = reader.onExecutorAndWait { reader.writeToDevice([1, 2, 3]) }
        switch outcome {
        case .dropped(.failed), .dropped(.notOpen): break
        default: Issue.record("a write to a peer that has gone: \(outcome)")
        }
    }
}

extension NMEAReader {
    /// Runs `body` on the reader's executor (its own serial queue here) and waits for it.
    fileprivate func onExecutorAndWait<T>(_ body: () -> T) -> T {
        guard let executor = executor as? SerialQueueExecutor else { fatalError("a reader on an event loop") }
        return executor.queue.sync(execute: body)
    }
}
