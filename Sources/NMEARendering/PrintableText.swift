/// `text` safe to print: control characters (C0, DEL, C1), line and paragraph separators and
/// the bidirectional overrides written as `\u{1B}`-style escapes, a backslash doubled so that
/// an escape cannot be forged; everything else unchanged. Text from outside (a vehicle's name
/// off the network) goes through this before it reaches a terminal or a document, so that it
/// can neither move the cursor nor forge a line or reorder what follows it.
public func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
        if needsEscape(scalar) {
            result += scalar == "\\" ? "\\\\" : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

private func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x5C: true
    case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
    default: false
    }
}
