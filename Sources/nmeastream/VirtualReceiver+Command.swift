import ArgumentParser
import NMEAStream

extension VirtualReceiver {
    /// A new virtual receiver, or the command's error line and exit code 69.
    static func opened(link: String? = nil) throws -> VirtualReceiver {
        do {
            return try VirtualReceiver(link: link)
        } catch {
            printError(error.message)
            throw ExitCode.unavailable
        }
    }
}
