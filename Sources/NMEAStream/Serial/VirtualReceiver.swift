import Dispatch
import NMEA
import Platform
import Signals

/// A receiver that is not there: a pseudo-terminal whose device side any program can open as
/// if it were a serial GPS (nmeastream, gpsd, minicom…), fed with NMEA by this object.
///
/// ```swift
/// let receiver = try VirtualReceiver()
/// print(receiver.devicePath)                 // /dev/pts/3
/// receiver.play(.log(path: "drive.nmea", pace: .realTime), loop: true)
/// ```
///
/// The pseudo-terminal exists until ``close()`` (or the object's end). Data written while no
/// program holds the device side open waits in the terminal's buffer (a few kilobytes), then
/// is dropped, as a real receiver's output is when nobody listens.
///
/// What programs write to the receiver (RTCM corrections, configuration commands) is read as
/// it comes, as a receiver takes it, so that a writer never finds the line full; it is
/// handed to ``onInput(_:)``'s handler, or dropped. The object holds the device side open
/// itself, in raw mode (no echo), so that the terminal stays whole between two programs.
public final class VirtualReceiver: @unchecked Sendable {
    /// The device side's path, such as `/dev/pts/3`: what a reader opens.
    public let devicePath: String
    /// The symbolic link made to ``devicePath``, if one was asked for.
    public let linkPath: String?
    private let master: Int32
    /// The device side, held open by the receiver itself.
    private let deviceHold: Int32
    /// Where the receiver plays and its state is kept.
    private let executor = SerialQueueExecutor(label: "nmeastream.virtual-receiver")
    private var queue: DispatchQueue { executor.queue }
    // Confined to `queue`.
    private var input: DispatchSourceRead?
    private var inputHandler: (@Sendable ([UInt8]) -> Void)?
    private var player: (any ByteSource)?
    private var timer: Disposable?
    private var isClosed = false

    /// Creates the pseudo-terminal, and a symbolic link to its device side at `link` when given
    /// (replacing a link already there, never another file).
    public init(link: String? = nil) throws(GPSError) {
        let fd: Int32
        let number: UInt32
        do throws(Errno) {
            (fd, number) = try Syscall.openPseudoterminal()
        } catch {
            throw .openFailed(path: "/dev/ptmx", errno: error)
        }
        // Writes never block: with nobody reading, the data is dropped.
        try? Syscall.setNonBlocking(fd)
        master = fd
        devicePath = "/dev/pts/\(number)"
        do throws(Errno) {
            deviceHold = try Syscall.open(devicePath, [.readWrite, .noControllingTerminal, .nonBlocking, .closeOnExec])
        } catch {
            Syscall.close(fd)
            throw .openFailed(path: devicePath, errno: error)
        }
        if let settings = try? Syscall.terminalSettings(deviceHold) {
            try? Syscall.setTerminalSettings(deviceHold, Syscall.raw(settings))
        }
        if let link {
            if (try? Syscall.linkStatus(link))?.kind == .symbolicLink { try? Syscall.remove(link) }
            do throws(Errno) {
                try Syscall.symbolicLink(link, to: devicePath)
            } catch {
                Syscall.close(deviceHold)
                Syscall.close(fd)
                throw .openFailed(path: link, errno: error)
            }
        }
        linkPath = link
        let input = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        input.setEventHandler { [weak self] in
            guard let self else { return }
            while let count = try? Syscall.read(fd, into: buffer), count > 0 {
                inputHandler?(Array(buffer[..<count]))
            }
        }
        // The descriptors close once the source can no longer read them.
        input.setCancelHandler { [deviceHold] in
            buffer.deallocate()
            Syscall.close(fd)
            Syscall.close(deviceHold)
        }
        self.input = input
        input.resume()
    }

    /// Hands what programs write to the receiver to `handler`, as it comes, on the receiver's
    /// queue (return at once); `nil` drops it, as before.
    public func onInput(_ handler: (@Sendable ([UInt8]) -> Void)?) {
        queue.async { [self] in inputHandler = handler }
    }

    deinit { close() }

    /// What to play.
    public enum Feed: Sendable {
        /// A recorded log, paced as asked (``LogPace/asFastAsPossible`` is seldom what a reader
        /// wants: it fills the terminal's buffer at once).
        case log(path: String, pace: LogPace)
        /// A log in memory, paced as asked.
        case bytes([UInt8], pace: LogPace)
        /// One epoch a second, for ever, the first at once: `epoch(n)` gives the bytes of the
        /// epoch `n` seconds after the first (from 0), such as a made-up track's. Epoch `n` is
        /// sent in the n-th second after the first epoch's (UTC), as ``eachSecond(epoch:)``
        /// sends its epochs: after a stall, the next one is the present second's.
        case everySecond(epoch: @Sendable (Int) -> [UInt8])
        /// One epoch a second, for ever, the first at once: `epoch(second)` gives the bytes of
        /// the epoch of `second` (POSIX seconds, UTC), which is the second it is sent in, as a
        /// receiver that keeps true time labels its reports. After the first, each goes out a
        /// tenth of a second into its second; after a stall (the process stopped, a loaded
        /// machine), the next goes out at once, labelled with the present second, and the pace
        /// is kept from there. A second never comes twice.
        case eachSecond(epoch: @Sendable (_ second: Int64) -> [UInt8])
    }

    /// Starts playing `feed` into the terminal (replacing what was playing); `loop` starts it
    /// over at its end. `ended` is called when it ends without looping, or fails.
    public func play(_ feed: Feed, loop: Bool = false, ended: @escaping @Sendable (GPSError?) -> Void = { _ in }) {
        queue.async { [self] in
            guard !isClosed else { return }
            player?.stop()
            player = nil
            timer?.dispose()
            timer = nil
            let source: any ByteSource
            switch feed {
            case .everySecond(let epoch):
                let first = UTCTime.now.posixTime.seconds
                return sendEachSecond(after: first - 1) { second in epoch(Int(second - first)) }
            case .eachSecond(let epoch):
                return sendEachSecond(after: UTCTime.now.posixTime.seconds - 1, epoch)
            case .log(let path, .asFastAsPossible): source = LogByteSource(path: path)
            case .log(let path, .recorded(let speed, let keepingGaps)):
                source = PacedLogByteSource(path: path, speed: speed, keepingGaps: keepingGaps)
            case .bytes(let bytes, .asFastAsPossible): source = MemoryByteSource(bytes: bytes)
            case .bytes(let bytes, .recorded(let speed, let keepingGaps)):
                source = PacedLogByteSource(bytes: bytes, speed: speed, keepingGaps: keepingGaps)
            }
            player = source
            source.start(on: executor, deliver: { [weak self] chunk in self?.write(chunk) }) { [weak self] error in
                guard let self, !isClosed else { return }
                if error == nil, loop {
                    play(feed, loop: true, ended: ended)
                } else {
                    ended(error)
                }
            }
        }
    }

    /// Sends the epoch of the present second now, unless it is not past `last`, then waits for
    /// a tenth of a second into the next (see ``Feed/eachSecond(epoch:)``). The wait is asked of
    /// the wall clock each time, so a stall shifts nothing after it.
    private func sendEachSecond(after last: Int64, _ epoch: @escaping @Sendable (_ second: Int64) -> [UInt8]) {
        guard !isClosed else { return }
        let now = UTCTime.now.posixTime
        // A wake a little early (a clock slewed) sends nothing twice: the same second waits.
        var sent = last
        if now.seconds > last {
            sent = now.seconds
            let bytes = epoch(sent)
            bytes.withUnsafeBytes { write($0) }
        }
        let due = (sent + 1 - now.seconds) * 1_000_000_000 + Self.phase - now.nanoseconds
        let latest = sent
        timer = executor.schedule(after: .nanoseconds(max(due, 1_000_000))) { [weak self] in
            self?.sendEachSecond(after: latest, epoch)
        }
    }

    /// How far into its second an epoch goes out, nanoseconds: a tenth of a second, as many
    /// receivers send theirs, and far enough from the second's edge that a late wake-up stays
    /// inside it.
    private static let phase: Int64 = 100_000_000

    /// Writes bytes into the terminal now, as the receiver's output.
    public func send(_ bytes: [UInt8]) {
        queue.async { [self] in bytes.withUnsafeBytes { write($0) } }
    }

    /// Stops playing, removes the link and closes the terminal (readers see the device go away).
    /// Safe from any thread, the `ended` callback of ``play(_:loop:ended:)`` included.
    public func close() {
        if executor.isCurrent { return shutDown() }
        queue.sync { shutDown() }
    }

    private func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        player?.stop()
        player = nil
        timer?.dispose()
        timer = nil
        if let linkPath { try? Syscall.remove(linkPath) }
        inputHandler = nil
        input?.cancel()
        input = nil
    }

    private func write(_ chunk: UnsafeRawBufferPointer) {
        guard !isClosed, let base = chunk.baseAddress else { return }
        // Fails with wouldBlock when nobody is reading and the buffer is full: the rest is dropped.
        try? Syscall.writeAll(master, UnsafeRawBufferPointer(start: base, count: chunk.count))
    }
}
