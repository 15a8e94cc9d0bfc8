import NIOCore
import Platform

extension GPSDServer {
    /// An address that could not be listened on (taken, not this machine's, not allowed), or a
    /// datagram feed's socket that could not be made.
    public struct ListenError: Error, CustomStringConvertible {
        /// Which of the server's listeners.
        public enum Listener: Sendable {
            /// The gpsd port's (``Configuration/listen``).
            case gpsd
            /// The live page's (``Configuration/http``).
            case page
            /// The plain NMEA feed's (``Configuration/nmeaFeed``).
            case nmeaFeed
            /// The NMEA datagrams' (``Configuration/nmeaDatagrams``): `address` is where they go.
            case nmeaDatagrams
        }

        /// `HOST:PORT` as configured.
        public var address: String
        /// Whose address it is.
        public var listener: Listener
        /// What the system said.
        public var reason: any Error

        /// Whether it is the live page's (``Configuration/http``).
        public var isPage: Bool { listener == .page }

        public var description: String {
            switch listener {
            case .gpsd: "cannot listen on \(address): \(why)"
            case .page: "cannot listen on \(address) for the live page: \(why)"
            case .nmeaFeed: "cannot listen on \(address) for the NMEA feed: \(why)"
            case .nmeaDatagrams: "cannot send NMEA datagrams to \(address): \(why)"
            }
        }

        /// The reason in words: a system call's error as the system says it ("address already
        /// in use"), not SwiftNIO's description of the call it made.
        private var why: String {
            guard let error = reason as? IOError else { return "\(reason)" }
            let said = Errno(rawValue: error.errnoCode).description
            return said.prefix(1).lowercased() + said.dropFirst()
        }
    }

    /// `address` as `HOST:PORT`, an IPv6 host in brackets (as `--listen` takes it).
    public static func hostAndPort(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "?"
        return (host.contains(":") ? "[\(host)]" : host) + ":\(address.port ?? 0)"
    }
}
