#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve --http` under load, as a real process: many pages (WebSocket feeds) and gpsd
/// clients at once.
@Suite("nmeastream serve --http under load", .mayBlock, .serialized)
struct ServeWebLoadTests {
    /// `serve` started on `device` with the page; the process, its stderr file, its gpsd port
    /// and its page's port.
    func startServe(_ device: String, errors: String) throws -> (ChildProcess, gpsd: Int, web: Int) {
        let process = try ChildProcess(Command.executable.path, [
            "serve", device, "--speed", "9600", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
        ], errorPath: errors)
        var ports: (Int, Int)?
        _ = eventually(seconds: 20) {
            let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            guard let gpsd = text.firstMatch(of: /on 127\.0\.0\.1:(\d+)/), let web = text.firstMatch(of: /live page on http:\/\/127\.0\.0\.1:(\d+)\//),
                  let gpsdPort = Int(gpsd.1), let webPort = Int(web.1) else { return false }
            ports = (gpsdPort, webPort)
            return true
        }
        let (gpsd, web) = try #require(ports, "serve did not start: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        return (process, gpsd, web)
    }

    /// The peak resident memory of process `pid` (VmHWM), in kB.
    func peakKilobytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test("200 pages and 10 gpsd clients at once: every one gets every epoch, in order; the server's peak memory stays under 64 MB")
    func twoHundredPages() throws {
        let terminal = try PseudoTerminal()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-web-load-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let (serve, gpsd, web) = try startServe(terminal.devicePath, errors: errors)
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        var pages: [WebSocketClient] = []
        for _ in 0..<200 {
            let page = try WebSocketClient(port: web)
            try #require(page.isOpen, "\(page.statusLine)")
            pages.append(page)
        }
        var clients: [LineClient] = []
        for _ in 0..<10 {
            let client = try LineClient(port: gpsd)
            client.send("?WATCH={\"enable\":true,\"json\":true};")
            try #require(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            clients.append(client)
        }
        for page in pages { try #require(page.readLine(containing: "\"class\":\"WATCH\"") != nil) }
        #expect(terminal.waitUntilConfigured())

        let epochs = 60
        let master = terminal.master
        for index in 0...epochs {
            let bytes = SyntheticEpochs.epoch(index)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            usleep(20_000)
        }
        // The epoch after the last is what completes it: every epoch up to `epochs - 1`.
        let expected = (0..<epochs).map(SyntheticEpochs.time)
        func times(_ next: () -> String?) -> [String] {
            var times: [String] = []
            while times.count < epochs, let line = next() {
                if let range = line.range(of: "\"time\":\"") { times.append(String(line[range.upperBound...].prefix(24))) }
            }
            return times
        }
        var pagesComplete = 0, clientsComplete = 0
        for page in pages where times({ page.readLine(containing: "\"class\":\"TPV\"") }) == expected { pagesComplete += 1 }
        for client in clients where times({ client.readLine(containing: "\"class\":\"TPV\"") }) == expected { clientsComplete += 1 }
        #expect(pagesComplete == 200, "pages with every epoch in order")
        #expect(clientsComplete == 10, "gpsd clients with every epoch in order")

        let peak = try #require(peakKilobytes(serve.pid))
        print("serve with 200 pages and 10 gpsd clients, \(epochs) epochs: peak resident memory \(peak / 1024) MB (\(peak) kB)")
        #expect(peak < 64 * 1024)
        serve.terminate()
        #expect(serve.waitForExit() == 0)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(!said.contains("dropped"), "no report dropped: \(said)")
    }
}
