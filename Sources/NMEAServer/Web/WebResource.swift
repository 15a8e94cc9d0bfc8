/// A file of the page, carried in the binary: nothing is read from disk, so no request can
/// reach a file outside these.
struct WebResource: Sendable {
    var contentType: String
    var body: String

    /// The page's files by request path: the one table the HTTP handler serves from.
    static let byPath: [String: WebResource] = [
        "/": WebResource(contentType: "text/html; charset=utf-8", body: PageDocument.html),
        "/index.html": WebResource(contentType: "text/html; charset=utf-8", body: PageDocument.html),
        "/app.js": WebResource(contentType: "text/javascript; charset=utf-8", body: PageScript.javascript),
        "/style.css": WebResource(contentType: "text/css; charset=utf-8", body: PageStyle.css),
    ]

    /// The path of the live feed (a WebSocket).
    static let feedPath = "/feed"
}
