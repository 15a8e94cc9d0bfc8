import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream

/// The live page's listener with real sockets: its files, its refusals, and the feed (a
/// WebSocket) as one more watcher of the shared device.
@Suite("Live web page", .mayBlock)
struct WebPageTests {
    /// A server of `terminal` with the page on an ephemeral loopback port; the server, its
    /// gpsd port and its page's port.
    func serve(_ terminal: PseudoTerminal, maximumClients: Int = 1024, requestTimeout: Duration = .seconds(10)) throws -> (GPSDServer, gpsd: Int, web: Int) {
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)],
                                                     maximumClients: maximumClients)
        configuration.http = [("127.0.0.1", 0)]
        configuration.httpRequestTimeout = requestTimeout
        let server = GPSDServer(configuration: configuration)
        let gpsd = try #require(try server.start().first?.port)
        let web = try #require(server.webAddresses.first?.port)
        return (server, gpsd, web)
    }

    /// The status line and body of one HTTP request (`Connection: close`).
    func request(_ port: Int, _ path: String, method: String = "GET", host: String? = nil) throws -> (status: String, body: String) {
        let client = try LineClient(port: port)
        client.send("\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n")
        let status = client.readLine() ?? ""
        var length = 0
        while let header = client.readLine(), !header.isEmpty {
            if header.lowercased().hasPrefix("content-length:") { length = Int(header.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
        }
        let body = method == "HEAD" ? [] : client.readBytes(length)
        return (status, String(decoding: body, as: UTF8.self))
    }

    @Test("serves the page, its script and style sheet, with the hooks the README promises; nothing else")
    func files() throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        let page = try request(web, "/")
        #expect(page.status == "HTTP/1.1 200 OK")
        for hook in [#"data-field="lat""#, #"data-field="lon""#, #"id="skyplot""#, #"src="/app.js""#, #"href="/style.css""#] {
            #expect(page.body.contains(hook), "\(hook) on the page")
        }
        let script = try request(web, "/app.js")
        #expect(script.status == "HTTP/1.1 200 OK")
        for hook in ["data-prn", "data-gnss", "data-used", "/feed"] { #expect(script.body.contains(hook)) }
        #expect(try request(web, "/style.css").status == "HTTP/1.1 200 OK")
        // The icon the page names, and where a browser looks for one (no 404 in its console).
        #expect(page.body.contains(#"href="/favicon.svg""#))
        for icon in ["/favicon.svg", "/favicon.ico"] {
            let answer = try request(web, icon)
            #expect(answer.status == "HTTP/1.1 200 OK", "\(icon)")
            #expect(answer.body.hasPrefix("<svg"), "\(icon)")
        }
        #expect(try request(web, "/", method: "HEAD").status == "HTTP/1.1 200 OK")
        #expect(try request(web, "/app.js?v=2").status == "HTTP/1.1 200 OK", "a query is not part of the path")
        for path in ["/nothing", "/../etc/passwd", "/%2e%2e/etc/passwd", "//etc/passwd", "/style.css/..", "/Package.swift"] {
            #expect(try request(web, path).status == "HTTP/1.1 404 Not Found", "\(path)")
        }
        #expect(try request(web, "/", method: "POST").status == "HTTP/1.1 405 Method Not Allowed")
        #expect(try request(web, "/app.js", method: "DELETE").status == "HTTP/1.1 405 Method Not Allowed")
        #expect(try request(web, "/feed").status == "HTTP/1.1 403 Forbidden", "the feed without an upgrade")
    }

    @Test("a loopback listener answers only requests addressed to a loopback name (no DNS rebinding)")
    func rebinding() throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        for host in ["localhost:\(web)", "127.0.0.1", "[::1]:\(web)", "LOCALHOST"] {
            #expect(try request(web, "/", host: host).status == "HTTP/1.1 200 OK", "\(host)")
        }
        for host in ["attacker.example:\(web)", "127.0.0.1.attacker.example", "192.168.1.2:\(web)"] {
            #expect(try request(web, "/", host: host).status == "HTTP/1.1 403 Forbidden", "\(host)")
        }
        #expect(WebRequestPolicy(isLoopback: false).allowsHost(named: "pi.local:8080"), "a listener on the network: any name")
        #expect(!WebRequestPolicy(isLoopback: true).allowsHost(named: "pi.local:8080"))
    }

    @Test("the feed: VERSION, DEVICES, WATCH, then TPV and SKY; a page alone opens the device, and closing it closes the device")
    func feedLifetime() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        #expect(openDescriptorCount(path) == 0)
        let page = try WebSocketClient(port: web, headers: [("Origin", "http://127.0.0.1:\(web)")])
        #expect(page.isOpen, "\(page.statusLine)")
        #expect(page.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(page.readLine()?.hasPrefix("{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"\(path)\"") == true)
        #expect(page.readLine()?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true,\"json\":true") == true)
        #expect(waitForDescriptors(on: path, count: 1), "the page watches: the device is open")
        #expect(terminal.waitUntilConfigured())
        terminal.write(Array(try Data(contentsOf: GPSDServerTests.fixture)))
        let sky = try #require(page.readLine(containing: "\"class\":\"SKY\""))
        #expect(sky.hasPrefix("{\"class\":\"SKY\",\"device\":\"\(path)\""))
        #expect(sky.contains("\"hdop\":"), "the epoch's dilutions in its SKY, as gpsd sends them")
        #expect(page.readLine(containing: "\"class\":\"TPV\"")?.contains("\"lat\":52.123456783") == true)
        page.send(opcode: 8, [0x03, 0xE8])
        #expect(page.nextControlFrame()?.opcode == 8, "the close is answered")
        #expect(waitForDescriptors(on: path, count: 0), "the last page closed: the device is closed")
    }

    @Test("the feed is refused to another site's page (cross-site WebSocket), and a page that sends data is closed; others carry on")
    func hostilePages() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsd, web) = try serve(terminal)
        defer { server.stop() }
        let foreign = try WebSocketClient(port: web, headers: [("Origin", "https://attacker.example")])
        #expect(!foreign.isOpen)
        #expect(foreign.statusLine == "HTTP/1.1 403 Forbidden")
        #expect(try WebSocketClient(port: web, path: "/other").isOpen == false)

        let gpsdClient = try #require(try GPSDServerTests().watcher(gpsd))
        let talker = try WebSocketClient(port: web)
        #expect(talker.isOpen, "no Origin: not a browser, served")
        #expect(talker.readLine(containing: "\"class\":\"WATCH\"") != nil)
        talker.send(opcode: 1, Array(#"?WATCH={"raw":2};"#.utf8))
        let close = try #require(talker.nextControlFrame())
        #expect(close.opcode == 8)
        #expect(close.payload.prefix(2) == [0x03, 0xF0], "1008: policy violation")
        #expect(terminal.waitUntilConfigured())
        terminal.write(Array(try Data(contentsOf: GPSDServerTests.fixture)))
        #expect(gpsdClient.readLine(containing: "\"class\":\"TPV\"") != nil, "the gpsd client is served on")
    }

    @Test("past the most clients, a page's connection is told 503 and a gpsd client 'Too many clients'; gpsd clients and pages count together")
    func tooManyClients() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsd, web) = try serve(terminal, maximumClients: 2)
        defer { server.stop() }
        var first: WebSocketClient? = try WebSocketClient(port: web)
        #expect(first?.isOpen == true)
        let watcher = try #require(try GPSDServerTests().watcher(gpsd))
        _ = watcher
        let refused = try WebSocketClient(port: web)
        #expect(!refused.isOpen && refused.statusLine.hasPrefix("HTTP/1.1 503"), "refused: \(refused.statusLine)")
        #expect(try request(web, "/").status.hasPrefix("HTTP/1.1 503"))
        let gpsdClient = try LineClient(port: gpsd)
        #expect(gpsdClient.readLine(seconds: 5) == #"{"class":"ERROR","message":"Too many clients"}"#)
        #expect(server.refusals.tooManyClients == 3)
        // Once one goes, the next is served.
        first = nil
        #expect(eventually { (try? request(web, "/").status.hasPrefix("HTTP/1.1 200")) == true })
    }
}

extension WebPageTests {
    @Test("a peer's close is answered as RFC 6455 says: its code echoed, 1000 for none, 1002 for a code no one may send or one byte, 1007 for a reason that is not UTF-8",
          arguments: [([0x0F, 0xA0], [0x0F, 0xA0]), ([], [0x03, 0xE8]), ([0x03, 0xE7], [0x03, 0xEA]), ([0x03], [0x03, 0xEA]),
                      ([0x03, 0xED], [0x03, 0xEA]), ([0x0B, 0xB7], [0x03, 0xEA]), ([0x13, 0x88], [0x03, 0xEA]),
                      ([0x03, 0xE9, 0xFF, 0xFE], [0x03, 0xEF]), ([0x03, 0xE9] + Array("bye".utf8), [0x03, 0xE9])] as [([UInt8], [UInt8])])
    func closeCodes(_ sent: [UInt8], _ answered: [UInt8]) throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        let page = try WebSocketClient(port: web)
        #expect(page.isOpen)
        page.sendClose(sent)
        let close = try #require(page.nextControlFrame())
        #expect(close.opcode == 8)
        #expect(Array(close.payload.prefix(2)) == answered, "sent \(sent)")
    }

    @Test("a request with two Host headers is refused (400), and does not reach the feed")
    func twoHosts() throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        let client = try LineClient(port: web)
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
        #expect(client.readLine() == "HTTP/1.1 400 Bad Request")
        let feed = try WebSocketClient(port: web, headers: [("Host", "attacker.example")])
        #expect(!feed.isOpen, "\(feed.statusLine)")
    }

    @Test("a connection that trickles its request a byte at a time is let go when its time is up, and counted")
    func trickle() throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal, requestTimeout: .seconds(1))
        defer { server.stop() }
        let client = try LineClient(port: web)
        let stayed = client.trickle(Array("GET / HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8), interval: 0.1, seconds: 8)
        #expect(stayed < 4, "let go after \(stayed) s")
        #expect(server.refusals.timedOut == 1)
        #expect(try request(web, "/").status == "HTTP/1.1 200 OK", "others are served")
    }

    @Test("a page that floods pings and never reads: nothing more is read from it once its pongs wait (bounded), and other pages are served")
    func pingFlood() throws {
        let terminal = try PseudoTerminal()
        let (server, _, web) = try serve(terminal)
        defer { server.stop() }
        let flooder = try WebSocketClient(port: web)
        #expect(flooder.isOpen)
        let sent = flooder.flood(opcode: 9, Array(repeating: 0x61, count: 125), seconds: 3)
        // Kernel buffers on both sides, a backlog of pongs and one read: a few megabytes.
        #expect(sent < 24 << 20, "\(sent) bytes of pings taken in 3 s")
        let other = try WebSocketClient(port: web)
        #expect(other.isOpen && other.readLine(containing: "\"class\":\"WATCH\"") != nil)
    }
}

extension WebSocketClient {
    /// The next frame that is not text (a close, a ping).
    func nextControlFrame() -> (opcode: UInt8, payload: [UInt8])? {
        while let frame = readFrame() {
            if frame.opcode != 1 { return frame }
        }
        return nil
    }
}
