import PlatformKit

/// Decides what the gateway does with a request path, before any I/O: answer it itself, forward it to a
/// service (with or without a token check), or refuse it.
struct GatewayRouter: Sendable {
    enum Decision: Equatable {
        /// One of the gateway's own endpoints.
        case local(LocalEndpoint)
        /// Forward to `service`; `requiresToken` unless the path is public.
        case forward(ServiceName, requiresToken: Bool)
        /// No route: 404.
        case notFound
        /// A path we refuse to interpret (dot segments, encoded separators): 400.
        case malformed
    }

    enum LocalEndpoint: Equatable {
        case live, ready, metrics, openAPI, appleAppSiteAssociation, assetLinks, docs
    }

    /// The routing rules with their prefixes as bytes, longest first so a more specific rule wins.
    private let routes: [(prefix: [UInt8], service: ServiceName)]
    /// Substrings, so the path is looked up without copying it into a `String`.
    private let publicPaths: Set<Substring>

    init(routes: [RouteTable.Entry], publicPaths: Set<String>) {
        self.routes = routes.map { (Array($0.prefix.utf8), $0.service) }.sorted { $0.prefix.count > $1.prefix.count }
        self.publicPaths = Set(publicPaths.map { Substring($0) })
    }

    /// Runs on every request, so it reads the path's bytes once and allocates nothing for a forwarded path
    /// (Foundation's `contains` went through NSString: a tenth of the gateway's CPU in a profile).
    func decide(uri: String) -> Decision {
        let path = uri.utf8.firstIndex(of: UInt8(ascii: "?")).map { uri[..<$0] } ?? Substring(uri)
        guard path.utf8.first == UInt8(ascii: "/") else { return .malformed }
        if !path.utf8.starts(with: "/v1/".utf8) {
            switch path {
            case "/health/live": return .local(.live)
            case "/health/ready": return .local(.ready)
            case "/metrics": return .local(.metrics)
            case "/openapi.json": return .local(.openAPI)
            case "/.well-known/apple-app-site-association": return .local(.appleAppSiteAssociation)
            case "/.well-known/assetlinks.json": return .local(.assetLinks)
            case "/docs", "/docs/", "/docs/init.js", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css":
                return .local(.docs)
            default: break
            }
        }
        // A service must see the path the gateway authorised; dot segments or encoded separators could
        // make the two disagree (and reach `/internal/...`).
        if Self.isAmbiguous(path.utf8) { return .malformed }
        let bytes = path.utf8
        for route in routes where bytes.starts(with: route.prefix) {
            let rest = bytes.dropFirst(route.prefix.count)
            guard rest.isEmpty || rest.first == UInt8(ascii: "/") else { continue }
            return .forward(route.service, requiresToken: !publicPaths.contains(path))
        }
        return .notFound
    }

    /// Whether the path has an empty, `.` or `..` segment, or a percent-encoded `.` or `/` (`%2e`, `%2f`, any case).
    static func isAmbiguous(_ path: Substring.UTF8View) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var previous: UInt8 = 0
        var segmentLength = 0
        var segmentDots = 0
        // 1 after a `%`, 2 after `%2`.
        var percent = 0
        for byte in path {
            if percent == 2, byte | 0x20 == UInt8(ascii: "e") || byte | 0x20 == UInt8(ascii: "f") { return true }
            percent = percent == 1 && byte == UInt8(ascii: "2") ? 2 : (byte == UInt8(ascii: "%") ? 1 : 0)
            if byte == slash {
                if previous == slash { return true }
                if segmentLength > 0, segmentLength <= 2, segmentDots == segmentLength { return true }
                segmentLength = 0
                segmentDots = 0
            } else {
                segmentLength += 1
                if byte == dot { segmentDots += 1 }
            }
            previous = byte
        }
        return segmentLength > 0 && segmentLength <= 2 && segmentDots == segmentLength
    }
}
