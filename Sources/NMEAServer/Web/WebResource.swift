/// A file of the page, carried in the binary: nothing is read from disk, so no request can
/// reach a file outside these.
struct WebResource: Sendable {
    var contentType: String
    var body: String

    /// The page's files by request path: the one table the HTTP handler serves from. They are
    /// `Web/Page/` in this target, carried as `PageFiles` by the EmbedPage build plugin: the
    /// HTML (with the hooks kept for tests and scripts: the text of `[data-field="lat"]` and
    /// `[data-field="lon"]` in decimal degrees, one element per satellite in `#skyplot` with
    /// `data-prn`, `data-gnss` and `data-used`), the style sheet, and the script that reads
    /// the feed and builds the page with DOM calls only, and its icon.
    static let byPath: [String: WebResource] = [
        "/": WebResource(contentType: "text/html; charset=utf-8", body: PageFiles.indexHtml),
        "/index.html": WebResource(contentType: "text/html; charset=utf-8", body: PageFiles.indexHtml),
        "/app.js": WebResource(contentType: "text/javascript; charset=utf-8", body: PageFiles.appJs),
        "/style.css": WebResource(contentType: "text/css; charset=utf-8", body: PageFiles.styleCss),
        // The page names it; /favicon.ico is where a browser looks when a page names none.
        "/favicon.svg": WebResource(contentType: "image/svg+xml; charset=utf-8", body: PageFiles.faviconSvg),
        "/favicon.ico": WebResource(contentType: "image/svg+xml; charset=utf-8", body: PageFiles.faviconSvg),
    ]

    /// The path of the live feed (a WebSocket).
    static let feedPath = "/feed"
}
