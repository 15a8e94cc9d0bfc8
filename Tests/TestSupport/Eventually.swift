#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Waits until `condition` holds, polling every millisecond, at most `seconds`; whether it did.
public func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}
