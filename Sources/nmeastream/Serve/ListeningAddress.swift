import ArgumentParser

/// `--http` and `--nmea`: `PORT` (both loopback addresses), `HOST:PORT` or `[IPv6]:PORT`.
struct PortOrAddress: ExpressibleByArgument, Sendable {
    var addresses: [HostAndPort]

    init?(argument: String) {
        if let port = Int(argument), (0...65_535).contains(port) {
            addresses = [HostAndPort(host: "127.0.0.1", port: port), HostAndPort(host: "::1", port: port)]
        } else if let address = HostAndPort(argument: argument) {
            addresses = [address]
        } else {
            return nil
        }
    }
}

/// `--listen` and `--nmea-udp`: `HOST:PORT`, or `[IPv6]:PORT`.
struct HostAndPort: ExpressibleByArgument, Sendable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(argument: String) {
        let host: Substring, port: Substring
        if argument.hasPrefix("["), let close = argument.firstIndex(of: "]") {
            host = argument[argument.index(after: argument.startIndex)..<close]
            let rest = argument[argument.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            port = rest.dropFirst()
        } else {
            guard let colon = argument.lastIndex(of: ":") else { return nil }
            host = argument[..<colon]
            port = argument[argument.index(after: colon)...]
        }
        guard !host.isEmpty, let number = Int(port), (0...65_535).contains(number) else { return nil }
        self.host = String(host)
        self.port = number
    }
}
