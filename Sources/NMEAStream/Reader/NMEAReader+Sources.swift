import Dispatch
import Platform

/// What a reader reads for each kind of source: the one switch over ``GPSSource``'s built-in
/// cases (a kind of its own, ``GPSSourceKind``, makes its bytes itself).
extension NMEAReader {
    /// The bytes of the reader's source, for one opening, on the reader's queue.
    func makeByteSource() -> any ByteSource {
        switch source {
        case .serial(let path, let speed):
            SerialByteSource(path: path, speed: speed, readLoop: readLoop, huntWindow: huntWindow) { [weak self] speed in
                guard let self else { return }
                found(speed: speed)
            }
        case .log(let path, .asFastAsPossible): LogByteSource(path: path)
        case .log(let path, .recorded(let speed, let keepingGaps)):
            PacedLogByteSource(path: path, speed: speed, keepingGaps: keepingGaps)
        case .bytes(let data): MemoryByteSource(bytes: data)
        case .automatic:
            automaticSource()
        case .watch:
            WatchingByteSource(
                readLoop: readLoop, huntWindow: huntWindow,
                chosen: { [weak self] port in
                    guard let self else { return }
                    sourceName = port.path
                    send(.choseDevice(port))
                },
                lost: { [weak self] path in self?.deviceLost(path) },
                speedFound: { [weak self] speed in
                    guard let self else { return }
                    found(speed: speed)
                })
        case .network(let endpoint):
            NetworkByteSource(
                endpoint: endpoint, readLoop: readLoop,
                connected: { [weak self] endpoint in
                    guard let self else { return }
                    // Counted from each connection: the waits between them are no silence.
                    armStaleWatch()
                    send(.connected(endpoint))
                },
                interrupted: { [weak self] interruption in self?.connectionLost(interruption) })
        case .custom(let kind):
            kind.base.makeByteSource()
        case .merged(let name, _):
            FailedByteSource(.noReceiverFound(detail: "\(name) merges other monitors' fixes and has no bytes to read: read it through GPSMonitor(merging:)"))
        }
    }

    /// The best receiver plugged in, at the speed found by listening (its catalogue speed
    /// tried early), or a source that fails with what discovery saw.
    func automaticSource() -> any ByteSource {
        let port: SerialPortInfo
        do throws(GPSError) {
            port = try PortDiscovery.bestReceiver()
        } catch {
            return FailedByteSource(error)
        }
        sourceName = port.path
        send(.choseDevice(port))
        // The node discovery just saw (its stable link names the same device).
        return SerialByteSource(path: port.path, speed: .automatic, readLoop: readLoop, huntWindow: huntWindow,
                                preferredSpeed: port.catalogueEntry?.defaultSpeed) { [weak self] speed in
            guard let self else { return }
            found(speed: speed)
        }
    }
}
