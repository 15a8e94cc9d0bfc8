/// The queue's database, written by one executor at a time: the queue's owner while it
/// opens it, then the one that commits its ``PendingWrite``s, one after the other.
final class QueueStore: @unchecked Sendable {
    fileprivate let database: SQLiteDatabase

    init(database: SQLiteDatabase) {
        self.database = database
    }
}

/// One write of a ``MessageQueue`` to its database, taken out of the queue so that it can be
/// committed away from the queue's memory: the messages to insert, the sequences to delete,
/// and the dropped count, in one transaction (one sync of the disk).
struct PendingWrite: Sendable {
    let store: QueueStore
    /// Messages not yet in the database.
    let messages: [MessageQueue.Message]
    /// Messages the broker took (or the bound dropped) that are in the database.
    let deletions: [UInt64]
    /// The queue's dropped count.
    let dropped: Int

    /// Commits the write; `nil` once it is on the disk, or why it is not (nothing of it is).
    func commit() -> SQLiteError? {
        let database = store.database
        do throws(SQLiteError) {
            try database.transaction { () throws(SQLiteError) in
                for sequence in deletions { try database.run("DELETE FROM messages WHERE sequence = ?", [.integer(Int64(sequence))]) }
                try database.run("INSERT OR REPLACE INTO counters (name, value) VALUES ('dropped', ?)", [.integer(Int64(dropped))])
                for message in messages {
                    try database.run("INSERT OR REPLACE INTO messages (sequence, topic, payload, retain) VALUES (?, ?, ?, ?)",
                                     [.integer(Int64(message.sequence)), .text(message.topic), .blob(message.payload),
                                      .integer(message.retain ? 1 : 0)])
                }
            }
            return nil
        } catch {
            return error
        }
    }
}
