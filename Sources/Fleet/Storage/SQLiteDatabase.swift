import Platform
import CSQLite
import NMEAStream

/// What SQLite said when a call failed: its result code, its message and, for a failed
/// system call (a full disk, a folder not writable), the system's `errno`.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    /// The system call's error, when one failed; `nil` when SQLite's own check did.
    var errno: Errno?

    var description: String { errno.map { "\(message) (\($0))" } ?? message }

    /// Whether the disk (or the file system's quota) is full.
    var isFull: Bool { code & 0xFF == SQLITE_FULL }
    /// Whether another process holds the database's lock (a backup, a second publisher).
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}

/// One SQLite database file, opened read-write (created if absent), on one thread at a time:
/// its owner serializes the calls. A thin wrapper: statements are prepared once and kept.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (or creates) the database at `path`. Fails when the folder is missing or not
    /// writable, or the file is not a database, or it can only be read.
    /// Why SQLite cannot be loaded (the loader's message); `nil` once it is. Check it before
    /// opening a database: without the library, opening fails with SQLITE_CANTOPEN and says
    /// only that it is not loaded.
    static var libraryFailure: String? { nmeastream_sqlite_load().map { String(cString: $0) } }

    /// How long a statement waits for a lock another process holds before it fails as busy:
    /// long enough for a checkpoint or another process's commit, short enough that the
    /// publisher's work goes on (a failed write is tried again on a timer).
    static let busyTimeout: Int32 = 250

    init(path: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = handle.map { Self.error(result, $0) } ?? SQLiteError(code: result, message: String(cString: sqlite3_errstr(result)))
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeout)
        // A file that exists but may not be written opens read-only, without a word.
        if sqlite3_db_readonly(handle, "main") == 1 {
            sqlite3_close_v2(handle)
            throw SQLiteError(code: SQLITE_READONLY, message: "the file can only be read")
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements, no parameters, no rows wanted).
    func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw Self.error(result, handle) }
    }

    /// A value bound to a statement's parameter.
    enum Value {
        case integer(Int64)
        case text(String)
        case blob([UInt8])
    }

    /// Runs the statement `sql` (prepared once, then kept) with `values`, calling `row` for
    /// each row it gives.
    func run(_ sql: String, _ values: [Value] = [], row: (Row) -> Void = { _ in }) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            // SQLITE_TRANSIENT: SQLite copies the bytes, which live only in this call.
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            let result: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, transient)
            case .blob(let bytes): bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), transient) }
            }
            guard result == SQLITE_OK else { throw Self.error(result, handle) }
        }
        while true {
            let result = sqlite3_step(statement)
            switch result {
            case SQLITE_ROW: row(Row(statement: statement))
            case SQLITE_DONE: return
            default: throw Self.error(result, handle)
            }
        }
    }

    /// A row of a statement's result, read while ``run(_:_:row:)`` calls its closure.
    struct Row {
        fileprivate let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String {
            guard let characters = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: characters)
        }

        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            // A failed COMMIT may have rolled back already; then this says so, and is moot.
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw Self.error(result, handle) }
        statements[sql] = statement
        return statement
    }

    private static func error(_ result: Int32, _ handle: OpaquePointer) -> SQLiteError {
        let system = sqlite3_system_errno(handle)
        return SQLiteError(code: result, message: String(cString: sqlite3_errmsg(handle)), errno: system != 0 ? Errno(rawValue: system) : nil)
    }
}
