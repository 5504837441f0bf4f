import PlatformKit
import Testing

@testable import GatewayService

/// Routing decisions: the gateway's own endpoints, forwarding with or without a token, refusals.
@Suite struct GatewayRouterTests {
    let router = GatewayRouter(
        routes: [.init("/v1/users", .identity), .init("/v1/auth", .identity), .init("/v1/users/special", .social)],
        publicPaths: [IdentityPaths.login])

    @Test(arguments: [
        ("/health/live", GatewayRouter.Decision.local(.live)),
        ("/health/ready", .local(.ready)),
        ("/metrics", .local(.metrics)),
        ("/openapi.json", .local(.openAPI)),
        ("/.well-known/apple-app-site-association", .local(.appleAppSiteAssociation)),
        ("/.well-known/assetlinks.json", .local(.assetLinks)),
        ("/.well-known/other", .notFound),
        ("/v1/users/me", .forward(.identity, requiresToken: true)),
        ("/v1/users", .forward(.identity, requiresToken: true)),
        ("/v1/users?query=x", .forward(.identity, requiresToken: true)),
        ("/v1/auth/login", .forward(.identity, requiresToken: false)),
        ("/v1/auth/login?x=1", .forward(.identity, requiresToken: false)),
        ("/v1/auth/login/extra", .forward(.identity, requiresToken: true)),
        ("/v1/users/special/thing", .forward(.social, requiresToken: true)),
        ("/v1/usersx", .notFound),
        ("/internal/users/batch", .notFound),
        ("/", .notFound),
        ("/v1/users/../internal", .malformed),
        ("/v1/users/./me", .malformed),
        ("/v1/users/%2E%2E/x", .malformed),
        ("/v1/users/a%2Fb", .malformed),
        ("/v1//users", .malformed),
        ("/v1/users/..", .malformed),
        ("/v1/users/.", .malformed),
        ("/v1/users/%2e", .malformed),
        ("/v1/users/a%2fb", .malformed),
        ("/v1/users/%2", .forward(.identity, requiresToken: true)),
        ("/v1/users/...", .forward(.identity, requiresToken: true)),
        ("/v1/users/a.b", .forward(.identity, requiresToken: true)),
        ("/v1/users/", .forward(.identity, requiresToken: true)),
        ("*", .malformed),
        ("http://evil/v1/users", .malformed),
    ])
    func decides(uri: String, expected: GatewayRouter.Decision) {
        #expect(router.decide(uri: uri) == expected)
    }
}
