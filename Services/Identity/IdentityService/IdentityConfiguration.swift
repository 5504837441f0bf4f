import Configuration
import Crypto
import Foundation
import Logging
import PlatformKit
import ServiceKit

/// Everything the identity service needs to start, built from the environment or by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `IDENTITY_SIGNING_KEY` | base64 of the 32-byte Ed25519 private key | generated in development |
/// | `IDENTITY_SIGNING_KEY_ID` | the JWKS `kid` | derived from the public key |
/// | `BCRYPT_COST` | bcrypt cost, 12 or more | 12 |
/// | `OIDC_PROVIDERS` | JSON array of ``OIDCProvider`` | none |
/// | `SMTP_HOST`, `SMTP_PORT`, `SMTP_SECURITY` (`plain`/`starttls`/`tls`: implicit TLS, port 465 by default), `SMTP_USERNAME`, `SMTP_PASSWORD`, `MAIL_FROM`, `SMTP_ALLOW_PLAINTEXT_AUTH` (credentials over `plain`; off) | the relay | unset: mail goes to `DATA_DIR/mail/` |
/// | `PASSWORD_RESET_URL` | the page the reset link opens | http://localhost:8080/reset-password |
/// | `EMAIL_VERIFICATION_URL` | the page the verification link opens (valid 24 h) | http://localhost:8080/verify-email |
/// | `LOGIN_RATE_LIMIT_PER_MINUTE` | sign-in attempts per client address per minute | 30 |
/// | `SESSION_LIFETIME_DAYS` | days from sign-in after which a session ends however often it is refreshed (1-365) | 90 |
/// | `SESSION_IDLE_DAYS` | days without a refresh after which a session ends (1 to `SESSION_LIFETIME_DAYS`) | 30 |
/// | `NOTIFICATIONS_URL` | the notifications service, told of ended sessions so their devices get no pushes | unset: logged |
/// | `SOCIAL_URL` | the social service, for how each user in the directory stands to the viewer | http://127.0.0.1:8082 |
/// | `DATABASE_URL` | identity's PostgreSQL database (``ServiceSettings``), shared by every replica | unset: the SQLite file |
///
/// With `DATABASE_URL`, any number of replicas serve at once: each needs the same `IDENTITY_SIGNING_KEY` (a generated
/// development key differs per data folder); sessions ended on one are refused by all within moments (the
/// revocation follower); each mail is sent by one of them; the rate limits count per replica.
public struct IdentityConfiguration: Sendable {
    public var settings: ServiceSettings
    public var signingKey: Curve25519.Signing.PrivateKey
    public var signingKeyID: String?
    /// bcrypt cost; production reads at least 12, tests may lower it to keep the suite fast.
    public var bcryptCost: Int
    public var oidcProviders: [OIDCProvider]
    public var smtp: SMTPSettings?
    public var mailFolder: String
    public var passwordResetURL: String
    public var resetTokenLifetime: TimeInterval
    public var emailVerificationURL: String
    public var verificationTokenLifetime: TimeInterval
    public var limits: IdentityRateLimits
    /// When sessions end on their own (absolute and idle limits).
    public var sessionLifetime: SessionLifetime
    /// The notifications service; `nil`: ended sessions are logged.
    public var notificationsURL: ServiceAddress?
    /// Replaces where ended sessions are reported (tests bind the notifications service once it runs).
    public var endedSessionSink: (any EndedSessionSink)?
    /// The social service (a test stack starts it after identity: ``ServiceAddress/late(_:)``); `nil`: the
    /// directory's entries carry no relationship and nobody is left out for having blocked the viewer.
    public var socialURL: ServiceAddress?
    /// Replaces the social graph built from ``socialURL`` (tests use a fake).
    public var socialGraph: (any SocialRelationsLookup)?
    /// Receives the background jobs once they are built, so tests can run them at the manual clock's time.
    public var jobsBuilt: (@Sendable (IdentityJobs) -> Void)?
    /// How often sessions past their lifetime are ended (one is refused when presented whatever this is).
    public var sessionExpiryInterval: Duration

    public init(
        settings: ServiceSettings, signingKey: Curve25519.Signing.PrivateKey, signingKeyID: String? = nil,
        bcryptCost: Int = 12, oidcProviders: [OIDCProvider] = [], smtp: SMTPSettings? = nil, mailFolder: String? = nil,
        passwordResetURL: String = "http://localhost:8080/reset-password", resetTokenLifetime: TimeInterval = 30 * 60,
        emailVerificationURL: String = "http://localhost:8080/verify-email",
        verificationTokenLifetime: TimeInterval = 24 * 3600,
        limits: IdentityRateLimits = .init(), sessionLifetime: SessionLifetime = .standard,
        notificationsURL: ServiceAddress? = nil,
        endedSessionSink: (any EndedSessionSink)? = nil, socialURL: ServiceAddress? = nil,
        socialGraph: (any SocialRelationsLookup)? = nil, jobsBuilt: (@Sendable (IdentityJobs) -> Void)? = nil,
        sessionExpiryInterval: Duration = .seconds(600)
    ) {
        self.socialURL = socialURL
        self.socialGraph = socialGraph
        self.jobsBuilt = jobsBuilt
        self.sessionExpiryInterval = sessionExpiryInterval
        self.settings = settings
        self.signingKey = signingKey
        self.signingKeyID = signingKeyID
        self.bcryptCost = bcryptCost
        self.oidcProviders = oidcProviders
        self.smtp = smtp
        self.mailFolder = mailFolder ?? "\(settings.dataDirectory)/mail"
        self.passwordResetURL = passwordResetURL
        self.resetTokenLifetime = resetTokenLifetime
        self.emailVerificationURL = emailVerificationURL
        self.verificationTokenLifetime = verificationTokenLifetime
        self.limits = limits
        self.sessionLifetime = sessionLifetime
        self.notificationsURL = notificationsURL
        self.endedSessionSink = endedSessionSink
    }

    /// Reads the configuration from the environment (see the table above and ``ServiceSettings``).
    public init(reader: ConfigReader) throws {
        let settings = try ServiceSettings(service: .identity, reader: reader)
        let secrets = DevelopmentSecrets(directory: settings.dataDirectory, environment: settings.environment)
        let keyText =
            try reader.string(forKey: "identity.signing.key", isSecret: true)
            ?? secrets.value(named: "identity-signing-key") {
                Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
            }
        guard let keyData = Data(base64Encoded: keyText),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: keyData)
        else { throw ConfigurationError.invalid("IDENTITY_SIGNING_KEY must be base64 of a 32-byte Ed25519 key") }
        let cost = reader.int(forKey: "bcrypt.cost", default: 12)
        guard (12...16).contains(cost) else { throw ConfigurationError.invalid("BCRYPT_COST must be 12 to 16") }
        var providers: [OIDCProvider] = []
        if let json = reader.string(forKey: "oidc.providers") {
            guard let decoded = try? JSONDecoder().decode([OIDCProvider].self, from: Data(json.utf8)) else {
                throw ConfigurationError.invalid(
                    "OIDC_PROVIDERS must be a JSON array of {name, issuers, jwksURL, audiences}")
            }
            providers = decoded
        }
        var smtp: SMTPSettings?
        if let host = reader.string(forKey: "smtp.host") {
            guard
                let security = SMTPSettings.Security(
                    rawValue: reader.string(forKey: "smtp.security", default: "starttls"))
            else { throw ConfigurationError.invalid("SMTP_SECURITY must be plain, starttls or tls") }
            smtp = SMTPSettings(
                host: host, port: reader.int(forKey: "smtp.port", default: security == .tls ? 465 : 587),
                security: security, username: reader.string(forKey: "smtp.username"),
                password: reader.string(forKey: "smtp.password", isSecret: true),
                sender: reader.string(forKey: "mail.from", default: "no-reply@localhost"),
                allowsPlaintextAuth: reader.bool(forKey: "smtp.allow.plaintext.auth", default: false))
        }
        var limits = IdentityRateLimits()
        limits.loginsPerAddress = reader.int(forKey: "login.rate.limit.per.minute", default: limits.loginsPerAddress)
        // A limiter of capacity 0 would refuse everyone with an infinite wait.
        guard (1...1_000_000_000).contains(limits.loginsPerAddress) else {
            throw ConfigurationError.invalid("LOGIN_RATE_LIMIT_PER_MINUTE must be a whole number from 1 to 1000000000")
        }
        let lifetimeDays = reader.int(forKey: "session.lifetime.days", default: 90)
        let idleDays = reader.int(forKey: "session.idle.days", default: 30)
        guard SessionLifetime.allowedDays.contains(lifetimeDays), SessionLifetime.allowedDays.contains(idleDays),
            idleDays <= lifetimeDays
        else {
            throw ConfigurationError.invalid(
                "SESSION_LIFETIME_DAYS must be 1 to 365 and SESSION_IDLE_DAYS 1 to SESSION_LIFETIME_DAYS")
        }
        self.init(
            settings: settings, signingKey: key, signingKeyID: reader.string(forKey: "identity.signing.key.id"),
            bcryptCost: cost, oidcProviders: providers, smtp: smtp,
            passwordResetURL: reader.string(
                forKey: "password.reset.url", default: "http://localhost:8080/reset-password"),
            emailVerificationURL: reader.string(
                forKey: "email.verification.url", default: "http://localhost:8080/verify-email"),
            limits: limits,
            sessionLifetime: SessionLifetime(
                absolute: TimeInterval(lifetimeDays) * 86_400, idle: TimeInterval(idleDays) * 86_400),
            notificationsURL: reader.optionalAddress(of: .notifications), socialURL: reader.address(of: .social))
    }

    /// Where ended sessions are reported: the test's sink, else the notifications service, else the log.
    func endedSessionReporter(logger: Logger) -> any EndedSessionSink {
        endedSessionSink
            ?? notificationsURL.map {
                NotificationsEndedSessionSink(address: $0, token: settings.internalToken, logger: logger)
            } ?? LoggedEndedSessionSink(logger: logger)
    }
}

/// How often sign-in and recovery may be attempted (OWASP Authentication cheat sheet).
public struct IdentityRateLimits: Sendable {
    /// Failed logins per account per 15 minutes.
    public var loginFailuresPerAccount = 10
    /// Login attempts per client address per minute.
    public var loginsPerAddress = 30
    /// Reset requests per account per hour.
    public var resetsPerAccount = 3
    /// Reset requests per client address per hour.
    public var resetsPerAddress = 10
    /// Registrations per client address per hour.
    public var registrationsPerAddress = 20
    /// Verification mails sent again per account per hour.
    public var verificationMailsPerAccount = 3
    /// Six-digit codes tried per address per hour (each code also dies after five wrong tries).
    public var codeTriesPerAddress = 10
    /// OpenID nonces issued per client address per minute.
    public var noncesPerAddress = 30

    public init() {}
}
