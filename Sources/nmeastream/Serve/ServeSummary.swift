import NMEAServer
import NMEAStream

/// What `serve` says once stopped: what was not delivered, and why, when anything was not
/// (nothing is dropped unless a client, or the server, could not keep up).
struct ServeSummary {
    let server: GPSDServer
    /// The RTK corrections' feed, waited for and summed up.
    let corrections: CorrectionsFeed?

    func say() {
        let dropped = server.reportsDroppedForSlowClients
        if dropped > 0 { printError("dropped \(counted(dropped, "report")) that clients did not read") }
        let silent = server.silentStreamsClosed
        if silent > 0 { printError("closed \(silent) time\(silent == 1 ? "" : "s") a receiver that sent nothing (--stale), and opened it again while clients watched") }
        let datagramCounts = server.datagramCounts
        if datagramCounts.unsent > 0 {
            printError("NMEA datagrams: \(datagramCounts.sent) sent, \(datagramCounts.unsent) not sent (\(datagramCounts.lastFailure ?? "the socket's buffer was full"))")
        }
        if let corrections {
            corrections.waitUntilClosed()
            if let summary = CorrectionsOptions.summary(corrections.status) { printError(summary) }
        }
        let refusals = server.refusals
        if refusals.total > 0 {
            let reasons = [(refusals.tooManyClients, "past the limit of \(server.connectionLimit) connections"),
                           (refusals.timedOut, "that sent no request in time"), (refusals.slowClients, "that did not read"),
                           (refusals.acceptFailures, "accepts that failed (out of descriptors?)")]
            printError("refused or let go: " + reasons.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        }
    }
}
