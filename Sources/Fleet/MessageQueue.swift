import CPlatform
import NMEAStream

/// Messages waiting for the broker, oldest first, bounded in bytes: past the bound the oldest
/// are dropped, and counted. With a folder, each message is also a file there
/// (`SEQUENCE.msg`), so what waits survives a restart of the publisher; without, it lives
/// in memory. Not thread-safe: its owner serializes calls.
struct MessageQueue {
    struct Message: Equatable {
        var sequence: UInt64
        var topic: String
        var payload: [UInt8]
        var retain: Bool
        var size: Int { topic.utf8.count + payload.count + 4 }
    }

    let folder: String?
    let capacity: Int
    private(set) var messages: [Message] = []
    private(set) var bytes = 0
    /// Messages dropped to stay in bounds, over the queue's life (kept in the folder too).
    private(set) var dropped = 0
    private var nextSequence: UInt64 = 1

    /// A queue of at most `capacity` bytes, in `folder` when given (its messages, left by an
    /// earlier run, are read back).
    init(folder: String?, capacity: Int) throws(GPSError) {
        self.folder = folder
        self.capacity = max(1, capacity)
        guard let folder else { return }
        if mkdir(folder, 0o700) != 0, Errno.current.rawValue != EEXIST {
            throw .openFailed(path: folder, errno: .current)
        }
        for name in Self.names(in: folder).sorted() {
            guard name.hasSuffix(".msg"), let sequence = UInt64(name.dropLast(4)),
                  let message = Self.read(folder + "/" + name, sequence: sequence) else { continue }
            messages.append(message)
            bytes += message.size
            nextSequence = max(nextSequence, sequence + 1)
        }
        dropped = Self.readFile(folder + "/dropped").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    /// Adds a message at the end, dropping the oldest while over the bound.
    mutating func append(topic: String, payload: [UInt8], retain: Bool) {
        let message = Message(sequence: nextSequence, topic: topic, payload: payload, retain: retain)
        nextSequence += 1
        if let folder { Self.write(message, to: folder + "/" + Self.name(message.sequence)) }
        messages.append(message)
        bytes += message.size
        var droppedNow = 0
        while bytes > capacity, messages.count > 1 {
            remove(messages[0].sequence)
            droppedNow += 1
        }
        if droppedNow > 0 {
            dropped += droppedNow
            if let folder { Self.writeFile(folder + "/dropped", Array(String(dropped).utf8)) }
        }
    }

    /// Forgets the message `sequence` (the broker has it).
    mutating func remove(_ sequence: UInt64) {
        guard let index = messages.firstIndex(where: { $0.sequence == sequence }) else { return }
        bytes -= messages[index].size
        messages.remove(at: index)
        if let folder { _ = unlink(folder + "/" + Self.name(sequence)) }
    }

    private static func name(_ sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".msg"
    }

    // A message's file: 1 byte retain, 2 bytes topic length (big-endian), topic, payload.
    private static func write(_ message: Message, to path: String) {
        let topic = Array(message.topic.utf8)
        let bytes = [message.retain ? 1 : 0, UInt8(topic.count >> 8 & 0xFF), UInt8(topic.count & 0xFF)] + topic + message.payload
        writeFile(path, bytes)
    }

    private static func read(_ path: String, sequence: UInt64) -> Message? {
        guard let bytes = readFile(path), bytes.count >= 3 else { return nil }
        let length = Int(bytes[1]) << 8 | Int(bytes[2])
        guard bytes.count >= 3 + length else { return nil }
        return Message(sequence: sequence, topic: String(decoding: bytes[3..<3 + length], as: UTF8.self),
                       payload: Array(bytes[(3 + length)...]), retain: bytes[0] == 1)
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) {
        // Written aside, then renamed: a crash leaves the old file or the new, never half.
        let temporary = path + ".new"
        guard let fd = try? Syscall.create(temporary, O_WRONLY | O_TRUNC | O_CLOEXEC, mode: 0o600) else { return }
        _ = bytes.withUnsafeBytes { try? Syscall.writeAll(fd, $0) }
        Syscall.close(fd)
        _ = rename(temporary, path)
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let fd = try? Syscall.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Syscall.close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = (try? chunk.withUnsafeMutableBytes { try Syscall.read(fd, into: $0) }) ?? 0
            if count <= 0 { break }
            result += chunk[..<count]
        }
        return result
    }

    private static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }
}
