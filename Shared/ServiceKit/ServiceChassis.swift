import Foundation
import GRDB
import Hummingbird
import Logging
import PlatformKit
import ServiceLifecycle

/// What every service's `Application+build.swift` opens with, built once from the settings: the service's
/// logger, the access-token verifier, the router with the platform's endpoints and middleware, and the two
/// route groups controllers attach to.
public struct ServiceChassis {
    /// The settings the service was built from.
    public let settings: ServiceSettings
    /// The service's logger (`platform.<service>`), at the configured level.
    public let logger: Logger
    /// Verifies access tokens; identity verifies with its own keys, every other service with identity's JWKS.
    public let verifier: AccessTokenVerifier
    /// The router with `/health/*`, `/metrics`, `/openapi.json`, request ids and problem answers.
    public let router: Router<ServiceRequestContext>
    /// What `/metrics` reports; services add their own gauges and counters to its registry.
    public let metrics = ServiceMetrics()
    /// Routes that any client may call (sign-up, sign-in, password reset).
    public var publicRoutes: RouterGroup<ServiceRequestContext> { router.group() }
    /// Routes for a verified caller; their context carries the caller.
    public let signedIn: RouterGroup<AuthenticatedContext>
    /// `/internal/...` routes, for platform services holding the internal credential only.
    public let internalOnly: RouterGroup<ServiceRequestContext>
    // A verifier of identity's keys learns ended sessions from identity's feed; identity's own learns them directly.
    private let followsIdentityRevocations: Bool
    /// What the store needs running (its PostgreSQL pool and listeners).
    private var storeServices: [any Service] = []

    /// The chassis of the service `settings` describe, serving `openAPIDocument` and checking `database` when
    /// asked whether it is ready. Without a `verifier`, tokens are checked against identity's published keys.
    /// With `writesNeedUsername`, an account that has not chosen a username may read but every other method answers
    /// 403 `username_required`: whatever it wrote, befriended or joined, nobody could tell who did.
    public init(
        settings: ServiceSettings, database: any DatabaseReader, openAPIDocument: Data,
        verifier: AccessTokenVerifier? = nil, writesNeedUsername: Bool = false
    ) {
        self.init(
            settings: settings, probe: SQLiteProbe(reader: database), openAPIDocument: openAPIDocument,
            verifier: verifier, writesNeedUsername: writesNeedUsername)
    }

    /// The chassis of a service keeping its data in `store` (SQLite or PostgreSQL): readiness asks the store's
    /// probe, and the store's own services (a PostgreSQL pool) run with the application.
    public init(
        settings: ServiceSettings, store: any ServiceStore, openAPIDocument: Data,
        verifier: AccessTokenVerifier? = nil, writesNeedUsername: Bool = false
    ) {
        self.init(
            settings: settings, probe: store.probe, openAPIDocument: openAPIDocument, verifier: verifier,
            writesNeedUsername: writesNeedUsername)
        storeServices = store.services
    }

    /// The same chassis, its readiness asking `probe` (a SQLite or PostgreSQL database).
    public init(
        settings: ServiceSettings, probe: any DatabaseProbe, openAPIDocument: Data,
        verifier: AccessTokenVerifier? = nil, writesNeedUsername: Bool = false
    ) {
        self.settings = settings
        var logger = Logger(label: "platform.\(settings.service.rawValue)")
        logger.logLevel = settings.logLevel
        self.logger = logger
        followsIdentityRevocations = verifier == nil
        self.verifier =
            verifier
            ?? AccessTokenVerifier.remote(
                jwksURL: settings.identityURL.url + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
        router = ServiceApplication.router(
            metrics: metrics, openAPIDocument: openAPIDocument, probe: probe, metricsToken: settings.metricsToken)
        signedIn = router.group()
            .add(middleware: AccessTokenMiddleware(verifier: self.verifier, writesNeedUsername: writesNeedUsername))
            .group(context: AuthenticatedContext.self)
        internalOnly = router.group().add(middleware: InternalCredentialMiddleware(token: settings.internalToken))
    }

    /// The application serving the routes, running `services` (jobs) beside the server and keeping the
    /// verifier's ended sessions current.
    public func application(services: [any Service] = []) -> some ApplicationProtocol {
        ServiceApplication.application(
            router: router, settings: settings, services: storeServices + services,
            verifier: followsIdentityRevocations ? verifier : nil)
    }
}
