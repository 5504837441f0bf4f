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
    var storeLogger = Logger(label: "platform.identity.store")
    storeLogger.logLevel = settings.logLevel
    let store = try await openIdentityStore(settings.database, logger: storeLogger)
    let signer = await TokenSigner(privateKey: configuration.signingKey, keyID: configuration.signingKeyID)
    // Identity verifies its own tokens with its own keys, and learns its ended sessions directly: from its own
    // sign-outs, and from its table through the follower (at start-up, then other replicas' and the roles command's).
    let verifier = AccessTokenVerifier.local(keys: signer.keys, clock: clock)
    let chassis = ServiceChassis(
        settings: settings, store: store, openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        verifier: verifier)
    let logger = chassis.logger

    let mailTransport: any MailTransport =
        configuration.smtp.map { SMTPTransport(settings: $0) }
        ?? FolderMailTransport(directory: URL(fileURLWithPath: configuration.mailFolder))
    let outbox = OutboxDelivery(store: store, transport: mailTransport, clock: clock, logger: logger)
    let hasher = PasswordHasher(cost: UInt8(configuration.bcryptCost))
    let bell = ChangeBell()
    let follower = RevocationFollower(store: store, verifier: verifier, bell: bell, clock: clock)
    // A store that needs nothing running (SQLite) answers now: the ended sessions are known before the first request.
    // PostgreSQL's pool runs with the application; the follower's first read comes as it starts.
    if store.services.isEmpty { try await follower.catchUp() }
    let endedSessions = RevocationPublishingSink(
        verifier: verifier, bell: bell, clock: clock, next: configuration.endedSessionReporter(logger: logger))
    let sessions = SessionIssuer(signer: signer, chain: RefreshTokenChain(signingKey: configuration.signingKey))
    let limits = RateLimits(configuration.limits, clock: clock)
    let verifications = EmailVerifications(
        verificationURL: configuration.emailVerificationURL, lifetime: configuration.verificationTokenLifetime)
    // One budget per address for typed codes, shared by reset and verification.
    let codeTries = MailCodeTries(
        perAddress: RateLimiter(capacity: configuration.limits.codeTriesPerAddress, period: 3600, clock: clock))

    AuthController(
        store: store, hasher: hasher, sessions: sessions, limits: limits, signer: signer, clock: clock,
        endedSessions: endedSessions, outbox: outbox, verifications: verifications,
        sessionLifetime: configuration.sessionLifetime
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    PasswordController(
        store: store, hasher: hasher, limits: limits, outbox: outbox, clock: clock,
        endedSessions: endedSessions,
        resetURL: configuration.passwordResetURL, resetTokenLifetime: configuration.resetTokenLifetime,
        codeTries: codeTries
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    let providers = OIDCVerifier(providers: configuration.oidcProviders, httpClient: .platform, clock: clock)
    OIDCController(store: store, sessions: sessions, clock: clock, verifier: providers, limits: limits)
        .addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    EmailVerificationController(
        store: store, outbox: outbox, clock: clock, verifications: verifications,
        resends: RateLimiter(capacity: configuration.limits.verificationMailsPerAccount, period: 3600, clock: clock),
        codeTries: codeTries
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    let social: (any SocialRelationsLookup)? =
        configuration.socialGraph
        ?? configuration.socialURL.map { SocialGraphClient(address: $0, token: settings.internalToken) }
    UsersController(store: store, signer: signer, clock: clock, social: social).addRoutes(to: chassis.signedIn)
    InternalUsersController(store: store).addRoutes(to: chassis.internalOnly)
    InternalSessionsController(store: store, bell: bell, clock: clock).addRoutes(to: chassis.internalOnly)

    if configuration.smtp == nil {
        logger.notice(
            "no SMTP configured: mail is written to files", metadata: ["folder": "\(configuration.mailFolder)"])
    }
    let jobs = IdentityJobs(
        sessionExpiry: SessionExpiry(
            store: store, lifetime: configuration.sessionLifetime, endedSessions: endedSessions))
    configuration.jobsBuilt?(jobs)
    let expiry = PeriodicJob("session expiry", every: configuration.sessionExpiryInterval, logger: logger) {
        try await jobs.expireSessions(now: clock.now)
    }
    return chassis.application(services: [outbox, expiry] + follower.services(logger: logger))
}
