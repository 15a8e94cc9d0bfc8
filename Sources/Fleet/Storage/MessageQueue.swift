import Platform
import NMEAStream

/// Messages waiting for the broker, oldest first, bounded in bytes: past the bound the oldest
/// are dropped, and counted. With a folder, the queue is also an SQLite database there
/// (`queue.sqlite3`, write-ahead log, every commit synced): a message counts as stored once
/// its transaction is committed, and what waits survives a restart of the publisher, a crash
/// or a power loss. Without a folder, it lives in memory. Not thread-safe: its owner
/// serializes calls. A write can be taken out (``takeWrite()``) and committed outside the
/// owner's lock, so that what only touches memory (an acknowledgement) never waits for the
/// disk.
///
/// When a write fails (a full disk, the database locked by another process past the busy
/// timeout), the messages stay in memory and are written with the next one that succeeds
/// (the publisher tries again on a timer); until then they are ``unstored``: lost if the
/// publisher stops before the broker takes them.
///
/// Nothing read from the database is trusted: at start, rows that cannot be sent are moved to
/// its `rejected` table (``movedAside``), sequences out of range are numbered again, and the
/// counters are clamped.
struct MessageQueue {
    struct Message: Equatable {
        var sequence: UInt64
        var topic: String
        var payload: [UInt8]
        var retain: Bool
        /// Whether it is in the database (always false without a folder).
        var isStored = false
        var size: Int { topic.utf8.count + payload.count + 4 }
    }

    /// A message to add: its topic, payload and retain flag.
    struct Outgoing {
        var topic: String
        var payload: [UInt8]
        var retain: Bool
    }

    /// How storing went, when it changed.
    enum StorageChange: Equatable {
        /// A write failed, and why: what waits is in memory only.
        case failed(String)
        /// Writes work again, and every message waiting is stored.
        case recovered
    }

    let folder: String?
    let capacity: Int
    private(set) var messages: [Message] = []
    private(set) var bytes = 0
    /// Messages dropped to stay in bounds, over the queue's life (kept in the database too).
    private(set) var dropped = 0
    /// Rows found in the database at start that could not be sent (damaged, or written by
    /// something else): moved to its `rejected` table, not sent.
    private(set) var movedAside = 0
    /// Messages waiting that a write failed to store.
    var unstored: Int { store == nil ? 0 : messages.count { !$0.isStored } }
    /// Why the last write failed, while writes fail.
    private(set) var storageFailure: String?
    private var nextSequence: UInt64 = 1
    private var store: QueueStore?
    /// The ``dropped`` count the database holds.
    private var storedDropped = 0
    /// Whether a write taken out (``takeWrite()``) is not yet finished.
    private var isWriting = false
    /// Messages the broker took, still in the database: deleted with the next write.
    private var acknowledged: [UInt64] = []

    /// The file the queue is kept in, in `folder`.
    static let fileName = "queue.sqlite3"

    /// A queue of at most `capacity` bytes, in `folder` when given (created if absent; what
    /// an earlier run left is read back). Fails, saying why, when the folder cannot hold it:
    /// missing parent, a file in its place, not writable, a file that is not a queue.
    init(folder: String?, capacity: Int) throws(QueueError) {
        self.folder = folder
        self.capacity = max(1, capacity)
        guard let folder else { return }
        do throws(Errno) {
            try Syscall.makeDirectory(folder, mode: 0o700)
        } catch {
            throw QueueError(folder: folder, reason: .folder(error))
        }
        guard (try? Syscall.status(folder))?.kind == .directory else {
            throw QueueError(folder: folder, reason: .notAFolder)
        }
        if let failure = SQLiteDatabase.libraryFailure { throw QueueError(folder: folder, reason: .library(failure)) }
        do throws(SQLiteError) {
            let store = try SQLiteDatabase(path: folder + "/" + Self.fileName)
            // WAL with FULL: a commit is on the disk when it returns, and a crash or a power
            // loss leaves every committed message (SQLite's own guarantee).
            try store.execute("""
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = FULL;
                CREATE TABLE IF NOT EXISTS messages (sequence INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB NOT NULL, retain INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                """)
            try Self.importMessageFiles(from: folder, into: store)
            movedAside = try Self.moveAsideWhatCannotBeSent(in: store)
            try store.run("SELECT sequence, topic, payload, retain FROM messages ORDER BY sequence") { row in
                let message = Message(sequence: UInt64(row.integer(0)), topic: row.text(1), payload: row.blob(2),
                                      retain: row.integer(3) != 0, isStored: true)
                messages.append(message)
                bytes += message.size
            }
            // A count from the file: anything from a negative number to Int64.max.
            try store.run("SELECT value FROM counters WHERE name = 'dropped'") { dropped = Int(clamping: max(0, min($0.integer(0), Int64(Self.largestCount)))) }
            nextSequence = (messages.last?.sequence ?? 0) + 1
            let queueStore = QueueStore(database: store)
            self.store = queueStore
            // Written now, so that a folder that cannot be written fails here and not later
            // (and a bound made smaller since the last run is kept).
            let write = PendingWrite(store: queueStore, messages: [], deletions: dropOverflow(), dropped: dropped)
            if let failure = write.commit() { throw failure }
            storedDropped = dropped
        } catch {
            if error.isBusy { throw QueueError(folder: folder, reason: .busy(error.message)) }
            throw QueueError(folder: folder, reason: .store(message: error.message, errno: error.errno))
        }
    }

    /// Adds messages at the end and writes them (in one transaction with a folder), dropping
    /// the oldest while over the bound. Returns how storing changed, if it did.
    mutating func append(_ outgoing: [Outgoing]) -> StorageChange? {
        enqueue(outgoing)
        return write()
    }

    /// Adds messages at the end, in memory only, dropping the oldest while over the bound;
    /// they are stored by the next write (``takeWrite()``).
    mutating func enqueue(_ outgoing: [Outgoing]) {
        for item in outgoing {
            let message = Message(sequence: nextSequence, topic: item.topic, payload: item.payload, retain: item.retain)
            nextSequence += 1
            messages.append(message)
            bytes += message.size
        }
        // Gone from memory whatever the write does; from the database with it (or the next).
        acknowledged += dropOverflow()
    }

    /// Writes what waits for the disk now, on the calling thread. Returns how storing
    /// changed, if it did.
    mutating func write() -> StorageChange? {
        guard let write = takeWrite() else { return nil }
        return finish(write, failure: write.commit())
    }

    /// Forgets the message `sequence` (the broker has it), writing at once when a deletion is
    /// due (``acknowledge(_:)``).
    mutating func remove(_ sequence: UInt64) {
        if acknowledge(sequence) { flush() }
    }

    /// Forgets the message `sequence` (the broker has it), in memory. With a folder, it leaves
    /// the database with the next write: a crash before that sends it again (QoS 1 may
    /// anyway), never loses it. Whether that write is due now: nothing more waits, or many
    /// deletions do.
    mutating func acknowledge(_ sequence: UInt64) -> Bool {
        guard let index = messages.firstIndex(where: { $0.sequence == sequence }) else { return false }
        bytes -= messages[index].size
        if messages[index].isStored { acknowledged.append(sequence) }
        messages.remove(at: index)
        return store != nil && !acknowledged.isEmpty && (messages.isEmpty || acknowledged.count >= 256)
    }

    /// Deletes from the database what the broker took (at the end, and when the queue empties).
    /// A failure leaves them for the next write; at worst they are sent again.
    mutating func flush() {
        guard store != nil, !acknowledged.isEmpty else { return }
        _ = write()
    }

    /// What the next write commits, taken out of the queue, or `nil` when nothing waits for the
    /// disk (or there is no folder). Its ``PendingWrite/commit()`` touches no memory of the
    /// queue, so it can run outside the owner's lock, on an executor of its own; hand it back
    /// with ``finish(_:failure:)``. One at a time: `nil` while one is out.
    mutating func takeWrite() -> PendingWrite? {
        guard let store, !isWriting else { return nil }
        let unstored = messages.filter { !$0.isStored }
        guard !unstored.isEmpty || !acknowledged.isEmpty || storageFailure != nil || dropped != storedDropped else { return nil }
        defer {
            acknowledged.removeAll()
            isWriting = true
        }
        return PendingWrite(store: store, messages: unstored, deletions: acknowledged, dropped: dropped)
    }

    /// Takes back a write ``takeWrite()`` gave, committed (`failure` `nil`) or not. Returns how
    /// storing changed, if it did.
    mutating func finish(_ write: PendingWrite, failure: SQLiteError?) -> StorageChange? {
        isWriting = false
        let wasFailing = storageFailure != nil
        if let failure {
            // Deleted with the next write that succeeds.
            acknowledged = write.deletions + acknowledged
            storageFailure = failure.description
            return wasFailing ? nil : .failed(failure.description)
        }
        storedDropped = write.dropped
        // Stored; those that left memory while the write ran (dropped, or taken by the broker)
        // leave the database with the next one.
        var stored = Set(write.messages.map(\.sequence))
        for index in messages.indices where stored.remove(messages[index].sequence) != nil { messages[index].isStored = true }
        acknowledged += stored.sorted()
        storageFailure = nil
        return wasFailing ? .recovered : nil
    }

    /// Drops the oldest messages (never the newest) while over the bound, counted; returns
    /// those of them that are in the database.
    private mutating func dropOverflow() -> [UInt64] {
        var count = 0, freed = 0
        while bytes - freed > capacity, count < messages.count - 1 {
            freed += messages[count].size
            count += 1
        }
        guard count > 0 else { return [] }
        let stored = messages.prefix(count).filter(\.isStored).map(\.sequence)
        messages.removeFirst(count)
        bytes -= freed
        dropped = min(dropped + count, Self.largestCount)
        return stored
    }

    /// What a counter may reach: far past any use, far from overflowing.
    static let largestCount = Int(Int64.max / 4)
}

extension MessageQueue {
    /// The largest payload of a message that can be sent: 1 MiB, hundreds of times a SKY.
    static let maximumPayload = 1 << 20
    /// The largest sequence kept: past it (or below 1) the waiting messages are numbered
    /// again from 1, in their order.
    static let largestSequence: Int64 = 1 << 62

    /// A row that can be sent, as SQL: a topic MQTT takes (1 to 65,535 bytes, no wildcard,
    /// no NUL), a payload of bytes within ``maximumPayload``, a retain flag of 0 or 1. Sizes
    /// are read without loading the values, so a row of hundreds of megabytes costs nothing.
    private static let sendable = """
        typeof(topic) = 'text' AND length(CAST(topic AS BLOB)) BETWEEN 1 AND 65535
        AND instr(topic, '+') = 0 AND instr(topic, '#') = 0 AND instr(CAST(topic AS BLOB), x'00') = 0
        AND typeof(payload) = 'blob' AND length(payload) <= \(maximumPayload)
        AND typeof(retain) = 'integer' AND retain IN (0, 1)
        """

    /// Moves the rows that cannot be sent to the table `rejected` (a payload over the bound
    /// without its bytes), and numbers the rest again when their sequences are out of range;
    /// one transaction. Returns how many were moved.
    private static func moveAsideWhatCannotBeSent(in store: SQLiteDatabase) throws(SQLiteError) -> Int {
        var moved = 0
        try store.run("SELECT count(*) FROM messages WHERE NOT coalesce((\(sendable)), 0)") { moved = Int($0.integer(0)) }
        var outOfRange = false
        try store.run("SELECT count(*) FROM messages WHERE sequence < 1 OR sequence > \(largestSequence)") { outOfRange = $0.integer(0) > 0 }
        guard moved > 0 || outOfRange else { return 0 }
        try store.transaction { () throws(SQLiteError) in
            if moved > 0 {
                try store.execute("""
                    CREATE TABLE IF NOT EXISTS rejected (sequence, topic, payload, retain, size INTEGER);
                    INSERT INTO rejected SELECT sequence, topic,
                        CASE WHEN typeof(payload) = 'blob' AND length(payload) > \(maximumPayload) THEN NULL ELSE payload END,
                        retain, CASE WHEN typeof(payload) = 'blob' THEN length(payload) END FROM messages WHERE NOT coalesce((\(sendable)), 0);
                    DELETE FROM messages WHERE NOT coalesce((\(sendable)), 0);
                    """)
            }
            if outOfRange {
                try store.execute("""
                    CREATE TEMP TABLE renumbered AS SELECT topic, payload, retain FROM messages ORDER BY sequence;
                    DELETE FROM messages;
                    INSERT INTO messages (sequence, topic, payload, retain) SELECT rowid, topic, payload, retain FROM renumbered ORDER BY rowid;
                    DROP TABLE renumbered;
                    """)
            }
        }
        return moved
    }
}

extension MessageQueue {
    /// Moves into the database the messages that earlier versions of nmeastream kept as files
    /// (`SEQUENCE.msg`: 1 byte retain, 2 bytes topic length big-endian, topic, payload) and
    /// their `dropped` count; the files go once the transaction is committed.
    private static func importMessageFiles(from folder: String, into store: SQLiteDatabase) throws(SQLiteError) {
        let names = (Syscall.directoryEntries(folder) ?? []).filter { $0.hasSuffix(".msg") || $0 == "dropped" }
        guard !names.isEmpty else { return }
        try store.transaction { () throws(SQLiteError) in
            for name in names {
                guard let bytes = try? Syscall.readFile(folder + "/" + name) else { continue }
                if name == "dropped" {
                    let count = Int(String(decoding: bytes, as: UTF8.self)) ?? 0
                    try store.run("INSERT OR REPLACE INTO counters (name, value) VALUES ('dropped', ?)", [.integer(Int64(count))])
                    continue
                }
                guard let sequence = Int64(name.dropLast(4)), bytes.count >= 3 else { continue }
                let length = Int(bytes[1]) << 8 | Int(bytes[2])
                guard bytes.count >= 3 + length else { continue }
                try store.run("INSERT OR REPLACE INTO messages (sequence, topic, payload, retain) VALUES (?, ?, ?, ?)",
                              [.integer(sequence), .text(String(decoding: bytes[3..<3 + length], as: UTF8.self)),
                               .blob(Array(bytes[(3 + length)...])), .integer(bytes[0] == 1 ? 1 : 0)])
            }
        }
        for name in names { try? Syscall.remove(folder + "/" + name) }
    }
}

/// Why the publisher's queue cannot be kept in its folder.
public struct QueueError: Error, CustomStringConvertible {
    /// What stands in the way.
    public enum Reason: Sendable {
        /// The folder cannot be made (its parent missing, not writable...).
        case folder(Errno)
        /// Something other than a folder is at its path.
        case notAFolder
        /// The queue's database cannot be opened or written there: SQLite's message, and the
        /// system's error when a system call failed (`nil` when SQLite's own check did, as for
        /// a file that is not a database).
        case store(message: String, errno: Errno?)
        /// SQLite itself cannot be loaded: the loader's message.
        case library(String)
        /// Another process holds the database's lock (a backup, a second publisher on the
        /// same folder): SQLite's message. Trying again later may work.
        case busy(String)
    }

    /// The queue folder.
    public var folder: String
    /// Why.
    public var reason: Reason

    /// One line: the folder and why, in the system's words.
    public var description: String {
        let why = switch reason {
        case .folder(let error): "\(error)"
        case .notAFolder: "it is not a folder"
        case .store(let message, let errno): errno.map { "\(message) (\($0))" } ?? message
        case .busy(let message): "another process holds its database locked (\(message)): a backup, or a second publisher of this folder"
        case .library(let failure):
            "SQLite is needed for the store and could not be loaded (\(failure)); on Debian: sudo apt-get install libsqlite3-0"
        }
        return "cannot keep the queue in \(folder): \(why)"
    }
}
