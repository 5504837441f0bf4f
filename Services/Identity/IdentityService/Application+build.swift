import AsyncHTTPClient
import Foundation
import Hummingbird
import JWTKit
import Logging
import PlatformKit
import ServiceKit

/// Builds the identity service from its configuration: the executable, the local stack and the tests
/// all start it through this one function.
public func buildIdentityApplication(_ configuration: IdentityConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    let clock = settings.clock
    var logger = Logger(label: "platform.identity")
    logger.logLevel = settings.logLevel

    let database = try IdentityDatabase(settings.database)
    let signer = await TokenSigner(privateKey: configuration.signingKey, keyID: configuration.signingKeyID)
    let verifier = AccessTokenVerifier.local(keys: signer.keys, clock: clock)
    // Identity learns its own ended sessions directly; after a restart, from its table.
    verifier.endSessions(try await database.revocations(after: nil, now: clock.now, limit: 0).items)
    let mailTransport: any MailTransport =
        configuration.smtp.map { SMTPTransport(settings: $0) }
        ?? FolderMailTransport(directory: URL(fileURLWithPath: configuration.mailFolder))
    let outbox = OutboxDelivery(database: database, transport: mailTransport, clock: clock, logger: logger)
    let hasher = PasswordHasher(cost: UInt8(configuration.bcryptCost))
    let reportedSessions: any EndedSessionSink =
        configuration.endedSessionSink
        ?? configuration.notificationsURL.map { url in
            NotificationsEndedSessionSink(baseURL: { url }, token: settings.internalToken, logger: logger)
        } ?? LoggedEndedSessionSink(logger: logger)
    let bell = RevocationBell()
    let endedSessions = RevocationPublishingSink(verifier: verifier, bell: bell, clock: clock, next: reportedSessions)
    let sessions = SessionIssuer(
        database: database, signer: signer, clock: clock, endedSessions: endedSessions,
        chain: RefreshTokenChain(signingKey: configuration.signingKey))
    let limits = RateLimits(configuration.limits, clock: clock)

    let metrics = ServiceMetrics()
    let router = ServiceApplication.router(
        metrics: metrics, openAPIDocument: ServiceApplication.openAPIDocument(in: .module), database: database.reader)
    let publicRoutes = router.group()
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)

    let verifications = EmailVerifications(
        verificationURL: configuration.emailVerificationURL, lifetime: configuration.verificationTokenLifetime)
    AuthController(
        database: database, hasher: hasher, sessions: sessions, limits: limits, signer: signer, clock: clock,
        endedSessions: endedSessions, outbox: outbox, verifications: verifications
    ).addRoutes(public: publicRoutes, signedIn: signedIn)
    PasswordController(
        database: database, hasher: hasher, limits: limits, outbox: outbox, clock: clock,
        endedSessions: endedSessions,
        resetURL: configuration.passwordResetURL, resetTokenLifetime: configuration.resetTokenLifetime
    ).addRoutes(public: publicRoutes, signedIn: signedIn)
    let providers = OIDCVerifier(providers: configuration.oidcProviders, httpClient: .platform, clock: clock)
    OIDCController(database: database, sessions: sessions, clock: clock, verifier: providers)
        .addRoutes(public: publicRoutes, signedIn: signedIn)
    EmailVerificationController(
        database: database, outbox: outbox, clock: clock, verifications: verifications,
        resends: RateLimiter(capacity: configuration.limits.verificationMailsPerAccount, period: 3600, clock: clock)
    ).addRoutes(public: publicRoutes, signedIn: signedIn)
    UsersController(database: database, clock: clock).addRoutes(to: signedIn)
    let internalRoutes = router.group().add(middleware: InternalCredentialMiddleware(token: settings.internalToken))
    InternalUsersController(database: database, clock: clock).addRoutes(to: internalRoutes)
    InternalSessionsController(database: database, bell: bell, clock: clock).addRoutes(to: internalRoutes)

    if configuration.smtp == nil {
        logger.notice(
            "no SMTP configured: mail is written to files", metadata: ["folder": "\(configuration.mailFolder)"])
    }
    return ServiceApplication.application(router: router, settings: settings, services: [outbox])
}
