import NMEAStream
import Platform

/// Hotplug: receivers plugged in are served, candidate ports (USB-serial bridges) listened to
/// and served or left alone, and ports unplugged forgotten.
extension GPSDServer {
    /// Serves the receivers plugged in now, and those plugged in later, until ``stop()``.
    func followHotplug() throws(GPSError) {
        let named = Set(configuration.devices)
        let failure = Protected<GPSError?>(nil)
        // Listening first: a receiver plugged in while the ports are looked at is not missed
        // (adding one twice does nothing).
        let subscription = Hotplug.events().observe { [weak self] event in
            switch event {
            case .next(.added(let port)): self?.found(port, named: named)
            case .next(.removed(let path)) where !named.contains(path): self?.unplugged(path)
            case .next: break
            case .failed(let error): failure.withLock { $0 = error }
            case .completed: break
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        registry.withLock { $0.hotplug = subscription }
        for port in try PortDiscovery.ports() { found(port, named: named) }
    }

    /// A port plugged in (or there at the start): a receiver is served; a candidate is
    /// listened to; anything else is left alone, unsaid (`list` says what it is).
    private func found(_ port: SerialPortInfo, named: Set<String>) {
        switch DeviceRegistry<ServedDevice, CandidateProbe>.decide(port, named: named) {
        case .serve(let discovered): addDevice(port.path, speed: configuration.speed, discovered: discovered)
        case .listen: listen(to: port)
        case .ignore: break
        }
    }

    private func listen(to port: SerialPortInfo) {
        let probe = CandidateProbe(path: port.path, speed: configuration.speed, timers: timers) { [weak self] outcome in
            self?.decided(port, outcome)
        }
        let isNew = registry.withLock { $0.devices.listen(to: port.path, with: probe) }
        guard isNew else { return }
        configuration.events?(.candidateListening(path: port.path, reason: port.reason))
        probe.start()
    }

    /// A candidate's probe decided (its port is closed by now).
    private func decided(_ port: SerialPortInfo, _ outcome: CandidateProbe.Outcome) {
        let current = registry.withLock { $0.devices.probeDecided(port.path) }
        // Unplugged meanwhile, or the server stopped.
        guard current else { return }
        switch outcome {
        case .receiver(let bitsPerSecond):
            let heard = bitsPerSecond.map { "valid NMEA or UBX at \($0) bit/s" } ?? "valid NMEA or UBX"
            let reason = "\(port.reason): \(heard): served"
            configuration.events?(.candidateServed(path: port.path, reason: reason))
            addDevice(port.path, speed: bitsPerSecond.map(SerialSpeed.bitsPerSecond) ?? configuration.speed, discovered: reason)
        case .notAReceiver(let why):
            let reason = "\(port.reason): \(why): not a receiver, left alone"
            registry.withLock { $0.devices.leaveAlone(port.path, reason: reason) }
            configuration.events?(.candidateLeftAlone(path: port.path, reason: reason))
        }
    }

    /// A port unplugged: no longer served, listened to, or left alone.
    private func unplugged(_ path: String) {
        let probe = registry.withLock { $0.devices.unplugged(path) }
        probe?.cancel()
        removeDevice(path)
    }
}
