import Platform
import Platform
import Dispatch
import NMEAStream

/// What SIGHUP does to a command.
enum HangUp {
    /// Stops it as SIGINT does: the terminal it ran in is gone (its document is closed).
    case stops
    /// Is said and ignored: a daemon (`serve`) has nothing to reload, and goes on.
    case ignored
}

/// Runs `stop` on SIGINT, SIGTERM, SIGQUIT or (unless told otherwise) SIGHUP instead of dying,
/// so that devices are put back in order and documents closed; a second signal exits at once
/// (status 130). SIGQUIT (Ctrl-\) would otherwise end the process with the runtime's crash
/// report, as if it had failed. SIGUSR1 and SIGUSR2, which no part of nmeastream uses and which would otherwise end
/// the process without a word, are ignored. Cancel the sources to stop listening.
func stopOnSignals(hangUp: HangUp = .stops, _ stop: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
    ProcessSignal.ignore(ProcessSignal.user1)
    ProcessSignal.ignore(ProcessSignal.user2)
    let stopping = [ProcessSignal.interrupt, ProcessSignal.terminate, ProcessSignal.quit] + (hangUp == .stops ? [ProcessSignal.hangUp] : [])
    for number in stopping + (hangUp == .ignored ? [ProcessSignal.hangUp] : []) { ProcessSignal.ignore(number) }
    let received = Protected(0)
    // A source listens only once Dispatch has registered it, after resume() returns; the
    // signal is ignored meanwhile, so one sent in between would be lost (a SIGTERM right after
    // start would not stop the command). Returns once every source is registered.
    let registered = DispatchGroup()
    func listening(_ source: DispatchSourceSignal) -> DispatchSourceSignal {
        registered.enter()
        source.setRegistrationHandler { registered.leave() }
        source.resume()
        return source
    }
    var sources = stopping.map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let count = received.withLock { count in
                count += 1
                return count
            }
            if count > 1 { ProcessExit.immediately(130) }
            stop()
        }
        return listening(source)
    }
    if hangUp == .ignored {
        let source = DispatchSource.makeSignalSource(signal: ProcessSignal.hangUp, queue: .global())
        source.setEventHandler { printError("SIGHUP: there is no configuration to reload; still running (SIGTERM stops)") }
        sources.append(listening(source))
    }
    // Bounded: a registration that never came would otherwise hang the command at start.
    _ = registered.wait(timeout: .now() + .seconds(2))
    return sources
}
