import CPlatform
import Dispatch
import NMEAStream

/// Runs `stop` on SIGINT or SIGTERM instead of dying, so that devices are put back in order
/// and documents closed; a second signal exits at once (status 130). Cancel the sources to
/// stop listening.
func stopOnSignals(_ stop: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
    nmeastream_ignore_signal(SIGINT)
    nmeastream_ignore_signal(SIGTERM)
    let received = Protected(0)
    return [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let count = received.withLock { count in
                count += 1
                return count
            }
            if count > 1 { _exit(130) }
            stop()
        }
        source.resume()
        return source
    }
}
