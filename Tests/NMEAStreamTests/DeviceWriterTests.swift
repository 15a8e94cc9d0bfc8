#if canImport(Glibc)
import Glibc
import Platform
#endif
import Dispatch
import TestSupport
import Testing
@testable import NMEAStream

/// The one write path to a serial device: whole byte strings in order, and a bounded backlog.
/// (A TCP receiver's writes: TCPReceiverWriteTests.)
@Suite("Device writer", .mayBlock)
struct DeviceWriterTests {
    @Test("a descriptor that takes nothing: strings wait whole, up to the bound; past it each is dropped whole; once it drains, all that waited arrives in order")
    func backlog() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        // Fill the pipe so that nothing more fits.
        let filler = [UInt8](repeating: 0xEE, count: 4096)
        var filled = 0
        while true {
            let count = filler.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            filled += count
        }
        let executor = SerialQueueExecutor(label: "test.writer")
        let queue = executor.queue
        let strings = (0..<40).map { index in [UInt8](repeating: UInt8(index), count: 1000) }
        let writer = DeviceWriter(descriptor: ends[1], executor: executor)
        let outcomes = queue.sync { strings.map { writer.write($0) } }
        let kept = DeviceWriter.backlogLimit / 1000
        #expect(outcomes.prefix(kept).allSatisfy { $0 == .written })
        #expect(outcomes.dropFirst(kept).allSatisfy { $0 == .dropped(.backlogFull) })
        // Drain the pipe: the retry timer writes what waited, whole and in order.
        let received = readBytes(from: ends[0], count: filled + kept * 1000)
        queue.sync { writer.close() }
        #expect(Array(received.dropFirst(filled)) == strings.prefix(kept).flatMap { $0 })
    }
}
