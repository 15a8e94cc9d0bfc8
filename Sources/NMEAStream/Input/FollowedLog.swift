import Dispatch
import Platform

/// A log file read as it grows, as `tail -f` reads it: the output of a logger that writes a
/// receiver's NMEA to a file, read live. A ``GPSSourceKind`` of its own: read it as
/// `.kind(FollowedLog(path: "/var/log/gps.nmea"))`.
///
/// The file is read to its end, then again every ``pollInterval`` for what was added (the
/// kernel tells nothing of a file's growth on a plain descriptor, so it is asked). A file
/// found shorter than what was read of it (emptied by a rotation such as logrotate's
/// `copytruncate`) is read again from its start; one emptied and written past that length
/// between two looks is not noticed. Its bytes are live: stamped as they are read. It ends only on a read error or
/// when the reader stops.
public struct FollowedLog: GPSSourceKind {
    /// Where reading starts.
    public enum Start: Sendable, Hashable {
        /// At the file's first byte: what is there is decoded, then what comes.
        case beginning
        /// At its end when opened: only what is written afterwards is decoded (what is there
        /// is read past).
        case end
    }

    /// The file's path.
    public var path: String
    /// Where reading starts.
    public var start: Start
    /// How long to wait, at the end of the file, before looking for more: 0.1 s unless told.
    public var pollInterval: Duration

    /// Follows the file at `path` from `start`, looking for more every `pollInterval`.
    public init(path: String, from start: Start = .end, pollInterval: Duration = .milliseconds(100)) {
        self.path = path
        self.start = start
        self.pollInterval = pollInterval
    }

    /// Live: a file that is written as the receiver sends.
    public var isLive: Bool { true }

    /// `follow:` and the path.
    public var description: String { "follow:\(path)" }

    public func makeByteSource() -> any ByteSource { FollowedLogByteSource(self) }
}

/// Reads a followed log on the reader's executor: confined to it, as every byte source is.
final class FollowedLogByteSource: ByteSource, @unchecked Sendable {
    let released = DispatchGroup()
    private let followed: FollowedLog
    private var file: LogFile?
    /// Bytes read from the file since it was opened (or found shrunk and opened again).
    private var offset = 0
    /// The bytes read past: the file's size when it was opened, when following from its end.
    private var skipped = 0

    init(_ followed: FollowedLog) { self.followed = followed }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        let file: LogFile
        do throws(RecordedLogError) {
            file = try LogFile(RecordedLog(path: followed.path))
        } catch {
            return end(.log(error))
        }
        if followed.start == .end { skipped = file.size ?? 0 }
        self.file = file
        released.enter()
        read(on: executor, deliver: deliver, end: end)
    }

    /// Reads what there is, then waits for more.
    private func read(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        guard file?.isOpen == true else { return }
        do throws(RecordedLogError) {
            let chunk = try file!.read()
            if !chunk.isEmpty {
                // What was there at the opening is read past; what was added since is not.
                let new = max(0, min(chunk.count, offset + chunk.count - skipped))
                offset += chunk.count
                if new > 0 { deliver(UnsafeRawBufferPointer(rebasing: chunk[(chunk.count - new)...])) }
                executor.schedule { self.read(on: executor, deliver: deliver, end: end) }
                return
            }
            // The file shrank (emptied, or replaced by a shorter one): read again from its start.
            if let size = file!.size, size < offset {
                try file!.reopen()
                offset = 0
                skipped = 0
            }
        } catch {
            stop()
            return end(.log(error))
        }
        executor.schedule(after: max(followed.pollInterval, .milliseconds(1))) {
            self.read(on: executor, deliver: deliver, end: end)
        }
    }

    func stop() {
        if file?.close() == true { released.leave() }
    }
}
