import ArgumentParser
import NMEARendering
import Platform

/// A word given where `nmeastream` (whose default command is `read`) takes a device, that is
/// no path and names no file: a command mistyped (`nmeastream sevre`), said as one, with the
/// closest command's name, rather than as a device that is not plugged in.
enum UnknownCommand {
    /// The commands' names.
    static var names: [String] {
        NMEAStreamCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// Whether `argument` reads as a command's name: a bare word (no `/`, no URL) that names
    /// no file here.
    static func isOne(_ argument: String) -> Bool {
        !argument.contains("/") && !argument.contains(":") && !argument.isEmpty && !Syscall.exists(argument)
    }

    /// What to say of `word`.
    static func message(_ word: String) -> String {
        let closest = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        let suggestion = closest.flatMap { $0.1 <= max(2, $0.0.count / 3) ? " (did you mean '\($0.0)'?)" : nil } ?? ""
        return "'\(printable(word))' is not a command\(suggestion), nor a device (a path, such as /dev/ttyACM0); "
            + "the commands are: \(names.joined(separator: ", "))"
    }

    /// The edit distance between `a` and `b` (insertions, deletions, substitutions, and two
    /// neighbours swapped, each 1).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
