#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// RTKLIB's `str2str` (Debian `rtklib`) as a real NTRIP caster: what the test writes to its input
/// port goes to every NTRIP client of its mountpoint `MOUNT` (user `me`, password `pw`), live
/// (a client gets what arrives after it connected). It answers NTRIP 1 (`ICY 200 OK`), also to
/// an NTRIP 2 request. What a client sends the caster (its position, GGA) comes back out of the
/// input port (`-b 1`), for the test to read. Run as
/// `str2str -in tcpsvr://:INPUT -out ntripc://me:pw@:PORT/MOUNT -b 1`, and ready once both
/// ports answer.
public final class RTKLIBCaster {
    /// The port the caster relays from: what is written there goes to its clients.
    public let input: Int
    /// The caster's NTRIP port.
    public let port: Int
    /// Whether it asks for user `me` and password `pw` (else anyone may connect).
    public let isAuthenticated: Bool
    private var child: ChildProcess

    /// Whether Debian's `rtklib` is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/str2str") }

    /// Starts it on free loopback ports, or those given; without `authenticated`, open to
    /// anyone.
    public init(input: Int? = nil, port: Int? = nil, authenticated: Bool = true) throws {
        self.input = input ?? freeLoopbackPort()
        self.port = port ?? freeLoopbackPort()
        isAuthenticated = authenticated
        child = try Self.spawn(input: self.input, port: self.port, authenticated: authenticated)
    }

    private static func spawn(input: Int, port: Int, authenticated: Bool) throws -> ChildProcess {
        let child = try ChildProcess("/usr/bin/str2str", ["-in", "tcpsvr://:\(input)", "-out", "ntripc://\(authenticated ? "me:pw@" : ""):\(port)/MOUNT", "-b", "1"])
        _ = eventually { (try? LineClient(port: port)) != nil && (try? LineClient(port: input)) != nil }
        return child
    }

    /// Killed (SIGKILL: a caster that crashes) and started again on the same ports.
    public func restart() throws {
        kill(child.pid, SIGKILL)
        _ = child.waitForExit()
        child = try Self.spawn(input: input, port: port, authenticated: isAuthenticated)
    }

    /// Ends it.
    public func stop() {
        child.terminate()
        _ = child.waitForExit()
    }
}

