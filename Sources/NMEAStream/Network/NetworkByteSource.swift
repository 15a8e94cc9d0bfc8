import Platform
import Dispatch

/// A receiver over the network (``NetworkEndpoint``), read by the same ``DeviceReadLoop`` as a
/// serial device: a TCP connection, a UDP socket, or an upstream gpsd.
///
/// It never gives up on its peer: a peer that is down at the start, or drops the connection,
/// is tried again after a wait (``ReconnectBackoff``), and each failure is told to
/// `interrupted` with the wait; each connection made, to `connected`. Only ``stop()`` ends it.
/// Names are resolved on the reader's queue when a connection is made (the system's resolver
/// answers from its cache or the network; a slow one delays that reader only).
final class NetworkByteSource: ByteSource, @unchecked Sendable {
    let endpoint: NetworkEndpoint
    let readLoop: any DeviceReadLoop
    let released = DispatchGroup()
    /// How long a connection may take before it counts as failed, in seconds.
    static let connectTimeout = 10.0
    private let connected: @Sendable (String) -> Void
    private let interrupted: @Sendable (NetworkInterruption) -> Void

    // Confined to the reader's queue.
    private var queue: DispatchQueue?
    private var deliver: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private var reading: (any DeviceReading)?
    private var pending: PendingConnection?
    private var addresses: [ResolvedAddress] = []
    private var retry: DispatchSourceTimer?
    private var backoff = ReconnectBackoff()
    private var hasData = false
    private var raw = GPSDRawFilter()
    private var filtered: [UInt8] = []
    private var isStopped = false
    /// Counts the connections made: a read loop's late call for an earlier one is ignored.
    private var attempt = 0
    /// A TCP connection being read, while it is: what ``write(_:)`` writes to.
    private var writer: DeviceWriter?

    /// What is sent first on each connection: an upstream gpsd's `?WATCH`, or the request
    /// given (an NTRIP client's).
    private let greeting: [UInt8]?

    init(endpoint: NetworkEndpoint, readLoop: any DeviceReadLoop, greeting: [UInt8]? = nil,
         connected: @escaping @Sendable (String) -> Void, interrupted: @escaping @Sendable (NetworkInterruption) -> Void) {
        self.endpoint = endpoint
        if case .gpsd(_, _, let device) = endpoint {
            self.greeting = Self.watchCommand(device: device)
        } else {
            self.greeting = greeting
        }
        self.readLoop = readLoop
        self.connected = connected
        self.interrupted = interrupted
    }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        self.queue = queue
        self.deliver = deliver
        // Held from start to stop: a source that is between connections still holds its place.
        released.enter()
        connect()
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        retry?.cancel()
        retry = nil
        abandonPending()
        writer?.close()
        writer = nil
        if let reading {
            self.reading = nil
            reading.stop(released: { [released] in released.leave() })
        }
        released.leave()
    }

    // MARK: Connecting

    private func connect() {
        guard !isStopped else { return }
        switch endpoint {
        case .tcp(let host, let port), .gpsd(let host, let port, _):
            do throws(ResolveFailure) {
                addresses = try Syscall.resolve(host, port: port, datagram: false)
            } catch {
                return failed("cannot resolve \(host): \(error.message)")
            }
            connectNext(lastError: nil)
        case .udp(let group, let port):
            listen(group: group, port: port)
        }
    }

    /// Tries the next address of the host; with none left, fails with the last error.
    private func connectNext(lastError: Errno?) {
        guard !isStopped else { return }
        guard !addresses.isEmpty else { return failed(lastError.map(\.description).map(lowercasedFirst) ?? "no address") }
        let address = addresses.removeFirst()
        let fd: Int32
        do throws(Errno) {
            fd = try Syscall.networkSocket(family: address.family, datagram: false)
        } catch {
            return connectNext(lastError: error)
        }
        released.enter()
        do throws(Errno) {
            if try Syscall.connect(fd, to: address) { return established(fd) }
        } catch {
            closeOwn(fd)
            return connectNext(lastError: error)
        }
        guard let queue else { return closeOwn(fd) }
        let check = DispatchSource.makeTimerSource(queue: queue)
        pending = PendingConnection(fd: fd, check: check, deadline: .now() + Self.connectTimeout)
        check.setEventHandler { [weak self] in self?.checkPending(fd) }
        check.schedule(deadline: .now() + .milliseconds(PendingConnection.firstCheck))
        check.resume()
    }

    /// Looks whether the connection under way on `fd` is done; looks again later if not,
    /// until its deadline.
    ///
    /// The socket is looked at on a timer rather than watched by a Dispatch write source: on
    /// Linux, libdispatch's epoll bookkeeping can free a registration that is still reachable
    /// when sources on descriptors come and go from several threads at once
    /// (swift-corelibs-libdispatch issue 949), and a peer that refuses connections makes one
    /// such source per attempt. A connection that is not made at once mostly fails or is made
    /// within milliseconds; the checks come at 1, 2, 4… ms, then every 64 ms.
    private func checkPending(_ fd: Int32) {
        guard var pending, pending.fd == fd else { return }
        let outcome: Errno??
        do throws(Errno) {
            outcome = try Syscall.isConnectionSettled(fd) ? .some(Syscall.pendingError(fd)) : nil
        } catch {
            outcome = .some(error)
        }
        switch outcome {
        case .some(nil):
            settle(pending)
            established(fd)
        case .some(let error?):
            settle(pending)
            closeOwn(fd)
            connectNext(lastError: error)
        case nil where DispatchTime.now() >= pending.deadline:
            settle(pending)
            closeOwn(fd)
            connectNext(lastError: .timedOut)
        case nil:
            pending.interval = min(pending.interval * 2, PendingConnection.longestCheck)
            pending.check.schedule(deadline: .now() + .milliseconds(pending.interval))
            self.pending = pending
        }
    }

    /// Stops looking at the pending connection; its socket is the caller's to use or close.
    private func settle(_ pending: PendingConnection) {
        self.pending = nil
        pending.check.cancel()
    }

    private func abandonPending() {
        guard let pending else { return }
        settle(pending)
        closeOwn(pending.fd)
    }

    /// Closes a descriptor this source still holds itself (not yet handed to the read loop).
    private func closeOwn(_ fd: Int32) {
        Syscall.close(fd)
        released.leave()
    }

    private func listen(group: String?, port: Int) {
        let addresses: [ResolvedAddress]
        do throws(ResolveFailure) {
            addresses = try Syscall.resolve(group, port: port, datagram: true)
        } catch {
            return failed("cannot resolve \(group ?? "the local address"): \(error.message)")
        }
        // With no group: IPv4 first, where broadcasts arrive.
        guard let address = addresses.first(where: { $0.isIPv4 }) ?? addresses.first else {
            return failed("no address to listen on")
        }
        let fd: Int32
        do throws(Errno) {
            fd = try Syscall.networkSocket(family: address.family, datagram: true)
        } catch {
            return failed(lowercasedFirst(error.description))
        }
        released.enter()
        do throws(Errno) {
            try Syscall.bind(fd, to: address)
            if group != nil {
                guard address.isMulticast else {
                    closeOwn(fd)
                    return failed("\(address) is not a multicast group (udp://:PORT receives unicast and broadcast)")
                }
                try Syscall.join(fd, group: address)
            }
        } catch {
            closeOwn(fd)
            return failed("cannot listen on \(address): \(lowercasedFirst(error.description))")
        }
        established(fd)
    }

    // MARK: Reading

    private func established(_ fd: Int32) {
        guard !isStopped, let queue, let deliver else { return closeOwn(fd) }
        if let greeting {
            let sent: Bool = greeting.withUnsafeBytes { bytes in (try? Syscall.sendAll(fd, bytes)) != nil }
            guard sent else {
                closeOwn(fd)
                let what = if case .gpsd = endpoint { "?WATCH" } else { "the request" }
                return failed("could not send \(what)")
            }
        }
        hasData = false
        raw = GPSDRawFilter()
        attempt += 1
        let attempt = self.attempt
        let isGPSD = if case .gpsd = endpoint { true } else { false }
        // Told before the first byte can be read: what is said of the connection (a server's
        // DEVICE line to its clients) comes before what it brings.
        connected(endpoint.description)
        if case .tcp = endpoint { writer = DeviceWriter(descriptor: fd, queue: queue, isSocket: true) }
        reading = readLoop.startReading(
            fd, on: queue,
            chunk: { [weak self] chunk in
                guard let self, !isStopped, attempt == self.attempt else { return }
                if !hasData {
                    hasData = true
                    backoff.reset()
                }
                if isGPSD {
                    filtered.removeAll(keepingCapacity: true)
                    raw.filter(chunk, into: &filtered)
                    if !filtered.isEmpty { filtered.withUnsafeBytes { deliver($0) } }
                } else {
                    deliver(chunk)
                }
            },
            ended: { [weak self] failure in
                guard let self, !isStopped, attempt == self.attempt else { return }
                drop(failure.map { lowercasedFirst($0.description) } ?? "closed by the peer")
            })
    }

    /// Closes the connection being read, for `reason` (the peer closed it, or went silent),
    /// and tries again after the wait; at the longest wait when the peer `misbehaved` (it
    /// answered in something other than its protocol: its bytes were no sign of health).
    func drop(_ reason: String, misbehaved: Bool = false) {
        guard !isStopped, let reading else { return }
        if misbehaved { backoff.wait(ReconnectBackoff.longest) }
        self.reading = nil
        writer?.close()
        writer = nil
        reading.stop(released: { [released] in released.leave() })
        failed(reason)
    }

    /// Writes `bytes` to the TCP connection being read, on the source's queue: corrections for
    /// a receiver behind a TCP port (a serial server), written as to a serial device, or an
    /// NTRIP client's position for its caster. A UDP feed or an upstream gpsd takes none.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        guard case .tcp = endpoint else { return .dropped(.notADevice) }
        return writer?.write(bytes) ?? .dropped(.notOpen)
    }

    /// gpsd's request for the receiver's bytes as it reads them (`raw:2`), of one device or all.
    static func watchCommand(device: String?) -> [UInt8] {
        var command = #"?WATCH={"enable":true,"raw":2"#
        if let device {
            var escaped = ""
            // A JSON string: a control character escaped, so that none can end the request.
            for scalar in device.unicodeScalars {
                switch scalar {
                case "\\", "\"": escaped += "\\" + String(scalar)
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    let digits = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            command += #","device":""# + escaped + "\""
        }
        return Array((command + "}\n").utf8)
    }

    // MARK: Trying again

    private func failed(_ reason: String) {
        guard !isStopped, let queue else { return }
        let delay = backoff.delay()
        interrupted(NetworkInterruption(endpoint: endpoint.description, reason: reason, retryIn: delay))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in
            guard let self, !isStopped else { return }
            retry?.cancel()
            retry = nil
            connect()
        }
        timer.schedule(deadline: .now() + delay)
        retry = timer
        timer.resume()
    }
}

/// A connection under way: its socket, the timer that looks at it, and its deadline.
private struct PendingConnection {
    /// How long until the socket is first looked at, in milliseconds.
    static let firstCheck = 1
    /// The longest wait between two looks at the socket, in milliseconds.
    static let longestCheck = 64

    let fd: Int32
    let check: DispatchSourceTimer
    let deadline: DispatchTime
    /// The wait before the next look, in milliseconds.
    var interval = firstCheck
}

/// `Connection refused` as `connection refused`, to sit inside a sentence.
private func lowercasedFirst(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.lowercased() + text.dropFirst()
}
