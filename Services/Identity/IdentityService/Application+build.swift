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
    let database = try IdentityDatabase(settings.database)
    let signer = await TokenSigner(privateKey: configuration.signingKey, keyID: configuration.signingKeyID)
    // Identity verifies its own tokens with its own keys, and learns its ended sessions directly (after a restart,
    // from its table).
    let verifier = AccessTokenVerifier.local(keys: signer.keys, clock: clock)
    verifier.endSessions(try await database.revocations(after: nil, now: clock.now, limit: 0).items)
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), verifier: verifier)
    let logger = chassis.logger

    let mailTransport: any MailTransport =
        configuration.smtp.map { SMTPTransport(settings: $0) }
        ?? FolderMailTransport(directory: URL(fileURLWithPath: configuration.mailFolder))
    let outbox = OutboxDelivery(database: database, transport: mailTransport, clock: clock, logger: logger)
    let hasher = PasswordHasher(cost: UInt8(configuration.bcryptCost))
    let bell = ChangeBell()
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
        database: database, hasher: hasher, sessions: sessions, limits: limits, signer: signer, clock: clock,
        endedSessions: endedSessions, outbox: outbox, verifications: verifications,
        sessionLifetime: configuration.sessionLifetime
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    PasswordController(
        database: database, hasher: hasher, limits: limits, outbox: outbox, clock: clock,
        endedSessions: endedSessions,
        resetURL: configuration.passwordResetURL, resetTokenLifetime: configuration.resetTokenLifetime,
        codeTries: codeTries
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    let providers = OIDCVerifier(providers: configuration.oidcProviders, httpClient: .platform, clock: clock)
    OIDCController(database: database, sessions: sessions, clock: clock, verifier: providers, limits: limits)
        .addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    EmailVerificationController(
        database: database, outbox: outbox, clock: clock, verifications: verifications,
        resends: RateLimiter(capacity: configuration.limits.verificationMailsPerAccount, period: 3600, clock: clock),
        codeTries: codeTries
    ).addRoutes(public: chassis.publicRoutes, signedIn: chassis.signedIn)
    UsersController(
        database: database, signer: signer, clock: clock, socialURL: configuration.socialURL,
        internalToken: settings.internalToken
    ).addRoutes(to: chassis.signedIn)
    InternalUsersController(database: database).addRoutes(to: chassis.internalOnly)
    InternalSessionsController(database: database, bell: bell, clock: clock).addRoutes(to: chassis.internalOnly)

    if configuration.smtp == nil {
        logger.notice(
            "no SMTP configured: mail is written to files", metadata: ["folder": "\(configuration.mailFolder)"])
    }
    let expiry = SessionExpiry(
        database: database, lifetime: configuration.sessionLifetime, endedSessions: endedSessions, clock: clock)
    return chassis.application(services: [outbox, expiry.job(logger: logger)])
}
