import Foundation
import Testing
@testable import NMEAServer
import TestSupport

/// The page's files are served exactly as they are in `Sources/NMEAServer/Web/Page`: what
/// the EmbedPage plugin carried in the binary is what was edited.
@Suite("Page files", .mayBlock)
struct PageFilesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/NMEAServer/Web/Page")

    @Test("each file of the page folder is served at its path, byte for byte, with its type; / is the HTML")
    func servedAsWritten() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(names == ["app.js", "favicon.svg", "index.html", "style.css"])
        let types = ["html": "text/html", "js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"]
        for name in names {
            let file = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            let served = try #require(WebResource.byPath["/" + name], "\(name) is not served")
            #expect(Array(served.body.utf8) == Array(file), "\(name) differs from the file")
            let type = try #require(types[(name as NSString).pathExtension])
            #expect(served.contentType.hasPrefix(type + ";"))
        }
        #expect(WebResource.byPath["/"]?.body == WebResource.byPath["/index.html"]?.body)
        // Content with every character a raw literal could trip on survives the trip.
        #expect(WebResource.byPath["/app.js"]?.body.contains("\"#2f7de1\"") == true)
    }
}
