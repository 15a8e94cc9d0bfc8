import Dispatch
import NIOCore
import Platform
import Signals

/// A receiver over the network (``NetworkEndpoint``), read on SwiftNIO's event loops as a
/// serial device is (``NetworkReceiverChannel``): a TCP connection, a UDP socket, or an
/// upstream gpsd.
///
/// It never gives up on its peer: a peer that is down at the start, or drops the connection,
/// is tried again after a wait (``ReconnectBackoff``), and each failure is told to
/// `interrupted` with the wait; each connection made, to `connected`. Only ``stop()`` ends it.
/// Names are resolved on the reader's executor when a connection is made (the system's resolver
/// answers from its cache or the network; a slow one delays that reader only).
final class NetworkByteSource: ByteSource, @unchecked Sendable {
    let endpoint: NetworkEndpoint
    let readLoop: any DeviceReadLoop
    let released = DispatchGroup()
    /// How long a connection may take before it counts as failed.
    static let connectTimeout = Duration.seconds(10)
    private let connected: @Sendable (String) -> Void
    private let interrupted: @Sendable (NetworkInterruption) -> Void

    // Confined to the reader's executor.
    private var executor: (any ReceiverExecutor)?
    private var deliver: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private var reading: (any DeviceReading)?
    /// A TCP connection under way, or a UDP socket being bound.
    private var pending: NetworkReceiverChannel?
    private var addresses: [ResolvedAddress] = []
    private var retry: Disposable?
    private var backoff = ReconnectBackoff()
    private var hasData = false
    private var raw = GPSDRawFilter()
    private var filtered: [UInt8] = []
    private var isStopped = false
    /// Counts the connections tried: a loop's late call for an earlier one is ignored.
    private var attempt = 0
    /// A TCP connection being read, while it is: what ``write(_:)`` writes to.
    private var connection: NetworkReceiverChannel?

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

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        self.executor = executor
        self.deliver = deliver
        // Held from start to stop: a source that is between connections still holds its place.
        released.enter()
        connect()
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        retry?.dispose()
        retry = nil
        if let pending {
            self.pending = nil
            pending.reading.stop(released: { [released] in released.leave() })
        }
        connection = nil
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
        case .udp(let address, let port):
            listen(address: address, port: port)
        }
    }

    /// Tries the next address of the host; with none left, fails with the last error.
    private func connectNext(lastError: Errno?) {
        guard !isStopped, let executor else { return }
        guard !addresses.isEmpty else { return failed(lastError.map(\.description).map(lowercasedFirst) ?? "no address") }
        let address = addresses.removeFirst()
        guard let target = Self.socketAddress(address) else { return connectNext(lastError: .invalidArgument) }
        attempt += 1
        let attempt = self.attempt
        released.enter()
        pending = .connecting(
            to: target, timeout: Self.connectTimeout, readLoop: readLoop.socketReadLoop, executor: executor,
            settled: { [weak self] failure in
                self?.settle(attempt: attempt, failure) { [weak self] error in self?.connectNext(lastError: error) }
            },
            chunk: { [weak self] chunk in self?.take(chunk, attempt: attempt) },
            ended: { [weak self] failure in self?.ended(failure, attempt: attempt) })
    }

    /// Receives datagrams on `port`: sent to `address` (a multicast group, joined, or an
    /// address of this machine), or to any address of this machine when it is `nil`.
    private func listen(address named: String?, port: Int) {
        guard let executor else { return }
        let addresses: [ResolvedAddress]
        do throws(ResolveFailure) {
            addresses = try Syscall.resolve(named, port: port, datagram: true)
        } catch {
            return failed("cannot resolve \(named ?? "the local address"): \(error.message)")
        }
        // With no address: IPv4 first, where broadcasts arrive.
        guard let address = addresses.first(where: { $0.isIPv4 }) ?? addresses.first,
              let target = Self.socketAddress(address) else {
            return failed("no address to listen on")
        }
        let group = named != nil && address.isMulticast ? target : nil
        attempt += 1
        let attempt = self.attempt
        released.enter()
        pending = .listening(
            on: target, joining: group, readLoop: readLoop.socketReadLoop, executor: executor,
            settled: { [weak self] failure in
                self?.settle(attempt: attempt, failure) { [weak self] error in
                    self?.failed("cannot listen on \(address): \(lowercasedFirst(error.description))")
                }
            },
            chunk: { [weak self] chunk in self?.take(chunk, attempt: attempt) },
            ended: { [weak self] failure in self?.ended(failure, attempt: attempt) })
    }

    /// The pending channel, attempt `attempt`, is made, or has failed (then `otherwise` is
    /// called with the error, once the channel is let go of).
    private func settle(attempt: Int, _ failure: Errno?, otherwise: (Errno) -> Void) {
        // Stopped meanwhile: stop() has let go of it.
        guard !isStopped, attempt == self.attempt, let channel = pending else { return }
        pending = nil
        if let failure {
            channel.reading.stop(released: { [released] in released.leave() })
            return otherwise(failure)
        }
        beginReading()
        if case .tcp = endpoint { connection = channel }
        reading = channel.reading
        channel.start(greeting: greeting)
    }

    /// `address` as SwiftNIO takes it (numeric: nothing is looked up).
    private static func socketAddress(_ address: ResolvedAddress) -> SocketAddress? {
        guard let (host, port) = address.numericHostAndPort else { return nil }
        return try? SocketAddress.makeAddressResolvingHost(host, port: port)
    }

    // MARK: Reading

    /// A connection is made, or a socket bound: said before the first byte can be read, so
    /// that what is said of it (a server's DEVICE line to its clients) comes before what it
    /// brings.
    private func beginReading() {
        hasData = false
        raw = GPSDRawFilter()
        connected(endpoint.description)
    }

    /// The bytes of one read of connection `attempt`.
    private func take(_ chunk: UnsafeRawBufferPointer, attempt: Int) {
        guard !isStopped, attempt == self.attempt, let deliver else { return }
        if !hasData {
            hasData = true
            backoff.reset()
        }
        if case .gpsd = endpoint {
            filtered.removeAll(keepingCapacity: true)
            raw.filter(chunk, into: &filtered)
            if !filtered.isEmpty { filtered.withUnsafeBytes { deliver($0) } }
        } else {
            deliver(chunk)
        }
    }

    /// Connection `attempt` ended by itself.
    private func ended(_ failure: Errno?, attempt: Int) {
        guard !isStopped, attempt == self.attempt else { return }
        drop(failure.map { lowercasedFirst($0.description) } ?? "closed by the peer")
    }

    /// Closes the connection being read, for `reason` (the peer closed it, or went silent),
    /// and tries again after the wait; at the longest wait when the peer `misbehaved` (it
    /// answered in something other than its protocol: its bytes were no sign of health).
    func drop(_ reason: String, misbehaved: Bool = false) {
        guard !isStopped, let reading else { return }
        if misbehaved { backoff.wait(ReconnectBackoff.longest) }
        self.reading = nil
        connection = nil
        reading.stop(released: { [released] in released.leave() })
        failed(reason)
    }

    /// Writes `bytes` to the TCP connection being read, on the reader's executor: corrections for
    /// a receiver behind a TCP port (a serial server), written as to a serial device, or an
    /// NTRIP client's position for its caster. A UDP feed or an upstream gpsd takes none.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        guard case .tcp = endpoint else { return .dropped(.notADevice) }
        return connection?.write(bytes) ?? .dropped(.notOpen)
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
        guard !isStopped, let executor else { return }
        let delay = backoff.delay()
        interrupted(NetworkInterruption(endpoint: endpoint.description, reason: reason, retryIn: delay))
        retry?.dispose()
        retry = executor.schedule(after: .seconds(delay)) { [weak self] in
            guard let self, !isStopped else { return }
            retry = nil
            connect()
        }
    }
}

/// `Connection refused` as `connection refused`, to sit inside a sentence.
private func lowercasedFirst(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.lowercased() + text.dropFirst()
}
