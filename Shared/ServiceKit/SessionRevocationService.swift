import AsyncHTTPClient
import Logging
import PlatformKit
import ServiceLifecycle

/// Runs a verifier's ``SessionRevocationFeed`` from identity until graceful shutdown, so a service called
/// directly refuses the tokens of ended sessions just as the gateway does.
public struct SessionRevocationService: Service {
    private let feed: SessionRevocationFeed

    /// A feed from the identity service the settings name, with the settings' service credential.
    public init(verifier: AccessTokenVerifier, settings: ServiceSettings, httpClient: HTTPClient = .platform) {
        var logger = Logger(label: "platform.\(settings.service.rawValue).revocations")
        logger.logLevel = settings.logLevel
        self.feed = SessionRevocationFeed(
            identityURL: settings.identityURL.url, token: settings.internalToken, verifier: verifier,
            httpClient: httpClient, logger: logger)
    }

    public func run() async {
        await cancelWhenGracefulShutdown { await feed.run() }
    }
}
