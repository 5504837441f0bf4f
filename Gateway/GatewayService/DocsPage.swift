import Foundation
import NIOCore

/// `GET /docs`: an interactive reference of the merged OpenAPI document (Swagger UI 5.31.0, vendored from PyPI's
/// `swagger-ui-bundle-v2` into `Docs/` with its licence), served from the gateway's own resources: no CDN, and a
/// Content-Security-Policy that allows scripts from this origin only.
enum DocsPage {
    /// One file of the page.
    struct Asset: Sendable {
        var contentType: String
        var body: ByteBuffer
        /// The page itself is always revalidated; the vendored files change only with the gateway.
        var cacheControl: String
    }

    /// Swagger UI sets inline styles and draws icons as data: URLs; everything else comes from here.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The files by path, read once from the bundle.
    static let assets: [String: Asset] = {
        var assets: [String: Asset] = [:]
        for (path, name, type) in [
            ("/docs", "index.html", "text/html; charset=utf-8"),
            ("/docs/init.js", "init.js", "text/javascript; charset=utf-8"),
            ("/docs/swagger-ui-bundle.js", "swagger-ui-bundle.js", "text/javascript; charset=utf-8"),
            ("/docs/swagger-ui.css", "swagger-ui.css", "text/css; charset=utf-8"),
        ] {
            let file = name.split(separator: ".", maxSplits: 1)
            guard
                let url = Bundle.module.url(
                    forResource: String(file[0]), withExtension: String(file[1]), subdirectory: "Docs"),
                let data = try? Data(contentsOf: url)
            else { continue }
            assets[path] = Asset(
                contentType: type, body: ByteBuffer(bytes: data),
                cacheControl: path == "/docs" ? "no-cache" : "public, max-age=86400")
        }
        assets["/docs/"] = assets["/docs"]
        return assets
    }()

    /// The file at `uri` (query ignored), if it is one of the page's.
    static func asset(at uri: String) -> Asset? {
        let path = uri.firstIndex(of: "?").map { String(uri[..<$0]) } ?? uri
        return assets[path]
    }
}
