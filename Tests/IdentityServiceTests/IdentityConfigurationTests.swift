import Configuration
import Crypto
import Foundation
import ServiceKit
import Testing

@testable import IdentityService

/// The identity service's environment: providers, SMTP, key and cost, with their checks.
@Suite struct IdentityConfigurationTests {
    func reader(_ environment: [String: String]) -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    let key = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()

    @Test func readsProvidersSMTPAndTheSigningKey() throws {
        let configuration = try IdentityConfiguration(
            reader: reader([
                "INTERNAL_TOKEN": "t", "IDENTITY_SIGNING_KEY": key, "BCRYPT_COST": "13",
                "OIDC_PROVIDERS":
                    #"[{"name":"google","issuers":["https://accounts.google.com"],"jwksURL":"https://g/jwks","audiences":["ios"]}]"#,
                "SMTP_HOST": "smtp.example.com", "SMTP_USERNAME": "u", "SMTP_PASSWORD": "p",
                "MAIL_FROM": "hi@example.com",
            ]))
        #expect(configuration.signingKey.rawRepresentation.base64EncodedString() == key)
        #expect(configuration.bcryptCost == 13)
        #expect(configuration.oidcProviders.map(\.name) == ["google"])
        #expect(configuration.smtp?.port == 587)
        #expect(configuration.smtp?.security == .startTLS, "SMTP is encrypted unless told otherwise")
        #expect(configuration.smtp?.sender == "hi@example.com")
    }

    @Test func readsTheSessionLifetimes() throws {
        let base = ["INTERNAL_TOKEN": "t", "IDENTITY_SIGNING_KEY": key]
        #expect(try IdentityConfiguration(reader: reader(base)).sessionLifetime == .standard, "90 days, 30 unused")
        let configured = try IdentityConfiguration(
            reader: reader(base.merging(["SESSION_LIFETIME_DAYS": "60", "SESSION_IDLE_DAYS": "7"]) { $1 }))
        #expect(configured.sessionLifetime == SessionLifetime(absolute: 60 * 86_400, idle: 7 * 86_400))
    }

    @Test(arguments: [
        ["BCRYPT_COST": "10"], ["OIDC_PROVIDERS": "{not json"], ["IDENTITY_SIGNING_KEY": "c2hvcnQ="],
        ["SMTP_HOST": "h", "SMTP_SECURITY": "ssl3"], ["SESSION_LIFETIME_DAYS": "0"], ["SESSION_LIFETIME_DAYS": "366"],
        ["SESSION_IDLE_DAYS": "0"], ["SESSION_LIFETIME_DAYS": "20", "SESSION_IDLE_DAYS": "30"],
        ["LOGIN_RATE_LIMIT_PER_MINUTE": "0"],
    ])
    func refusesBadValues(overrides: [String: String]) {
        let environment = ["INTERNAL_TOKEN": "t", "IDENTITY_SIGNING_KEY": key].merging(overrides) { $1 }
        #expect(throws: ConfigurationError.self) { try IdentityConfiguration(reader: reader(environment)) }
    }
}
