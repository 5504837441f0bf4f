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

    private let routes: [RouteTable.Entry]
    private let publicPaths: Set<String>

    init(routes: [RouteTable.Entry], publicPaths: Set<String>) {
        // Longest prefix first, so a more specific rule wins.
        self.routes = routes.sorted { $0.prefix.count > $1.prefix.count }
        self.publicPaths = publicPaths
    }

    func decide(uri: String) -> Decision {
        let path = uri.firstIndex(of: "?").map { uri[..<$0] } ?? Substring(uri)
        guard path.first == "/" else { return .malformed }
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
        // A service must see the path the gateway authorised; dot segments or encoded separators could
        // make the two disagree (and reach `/internal/...`).
        if path.contains("%2e") || path.contains("%2E") || path.contains("%2f") || path.contains("%2F")
            || path.contains("//") || path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." })
        {
            return .malformed
        }
        for route in routes where path == route.prefix || path.hasPrefix(route.prefix + "/") {
            return .forward(route.service, requiresToken: !publicPaths.contains(String(path)))
        }
        return .notFound
    }
}
