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
            case .next(.added(let port)) where !named.contains(port.path): self?.found(port)
            case .next(.removed(let path)) where !named.contains(path): self?.unplugged(path)
            case .next: break
            case .failed(let error): failure.withLock { $0 = error }
            case .completed: break
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        registry.withLock { $0.hotplug = subscription }
        for port in try PortDiscovery.ports() where !named.contains(port.path) { found(port) }
    }

    /// A port plugged in (or there at the start): a receiver is served; a candidate is
    /// listened to; anything else is left alone, unsaid (`list` says what it is).
    private func found(_ port: SerialPortInfo) {
        switch port.kind {
        case .gps: addDevice(port.path, speed: configuration.speed, discovered: port.reason + ": served")
        case .candidate: listen(to: port)
        case .other: break
        }
    }

    private func listen(to port: SerialPortInfo) {
        let probe = CandidateProbe(path: port.path, speed: configuration.speed, timers: timers) { [weak self] outcome in
            self?.decided(port, outcome)
        }
        let isNew = registry.withLock { state -> Bool in
            guard state.probes[port.path] == nil, !state.devices.contains(where: { $0.path == port.path }),
                  !state.leftAlone.contains(where: { $0.path == port.path }) else { return false }
            state.probes[port.path] = probe
            return true
        }
        guard isNew else { return }
        configuration.events?(.candidateListening(path: port.path, reason: port.reason))
        probe.start()
    }

    /// A candidate's probe decided (its port is closed by now).
    private func decided(_ port: SerialPortInfo, _ outcome: CandidateProbe.Outcome) {
        let current = registry.withLock { state -> Bool in state.probes.removeValue(forKey: port.path) != nil }
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
            registry.withLock { $0.leftAlone.append((port.path, reason)) }
            configuration.events?(.candidateLeftAlone(path: port.path, reason: reason))
        }
    }

    /// A port unplugged: no longer served, listened to, or left alone.
    private func unplugged(_ path: String) {
        let probe = registry.withLock { state -> CandidateProbe? in
            state.leftAlone.removeAll { $0.path == path }
            return state.probes.removeValue(forKey: path)
        }
        probe?.cancel()
        removeDevice(path)
    }
}
