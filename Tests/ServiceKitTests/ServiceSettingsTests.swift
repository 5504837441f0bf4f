import Configuration
import Foundation
import PlatformKit
import ServiceKit
import Testing

/// Settings come from the environment with local defaults; production never makes up a secret.
@Suite struct ServiceSettingsTests {
    func reader(_ environment: [String: String]) -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)").path
    }

    @Test func developmentHasWorkingDefaultsAndKeepsItsGeneratedSecret() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try ServiceSettings(service: .identity, reader: reader(["DATA_DIR": folder]))
        #expect(first.port == 8081)
        #expect(first.host == "127.0.0.1")
        #expect(first.database == .file("\(folder)/identity.sqlite"))
        #expect(first.internalToken.count >= 32)
        let second = try ServiceSettings(service: .social, reader: reader(["DATA_DIR": folder]))
        #expect(second.internalToken == first.internalToken, "services of one stack share the generated credential")
    }

    @Test func theEnvironmentOverridesTheDefaults() throws {
        let settings = try ServiceSettings(
            service: .identity,
            reader: reader([
                "HOST": "0.0.0.0", "PORT": "9000", "DATABASE_PATH": "/tmp/x.sqlite", "INTERNAL_TOKEN": "t",
                "IDENTITY_URL": "http://identity:8081", "LOG_LEVEL": "debug",
            ]))
        #expect(settings.host == "0.0.0.0" && settings.port == 9000)
        #expect(settings.database == .file("/tmp/x.sqlite"))
        #expect(settings.internalToken == "t" && settings.identityURL.url == "http://identity:8081")
        #expect(settings.logLevel == .debug)
    }

    @Test func theOutboxLimitIsReadAndBounded() throws {
        #expect(try ServiceSettings(service: .social, reader: reader(["INTERNAL_TOKEN": "t"])).outboxLimit == 100_000)
        let set = try ServiceSettings(service: .social, reader: reader(["INTERNAL_TOKEN": "t", "OUTBOX_LIMIT": "500"]))
        #expect(set.outboxLimit == 500)
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(service: .social, reader: reader(["INTERNAL_TOKEN": "t", "OUTBOX_LIMIT": "0"]))
        }
    }

    @Test func productionRefusesMissingOrWeakSecrets() {
        let folder = temporaryFolder()
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(service: .identity, reader: reader(["ENVIRONMENT": "production", "DATA_DIR": folder]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(
                service: .identity,
                reader: reader(["ENVIRONMENT": "production", "INTERNAL_TOKEN": "development-only-internal-token-0000"]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(service: .identity, reader: reader(["ENVIRONMENT": "staging"]))
        }
        #expect(!FileManager.default.fileExists(atPath: folder), "nothing was generated")
    }

    /// The scrape credential opens `/metrics` only, so it may not be the service credential; unset, metrics are closed.
    @Test func theScrapeCredentialIsItsOwnSecret() throws {
        let set = try ServiceSettings(
            service: .identity, reader: reader(["INTERNAL_TOKEN": "t", "METRICS_TOKEN": "m"]))
        #expect(set.metricsToken == "m")
        #expect(try ServiceSettings(service: .identity, reader: reader(["INTERNAL_TOKEN": "t"])).metricsToken == nil)
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(
                service: .identity, reader: reader(["INTERNAL_TOKEN": "same", "METRICS_TOKEN": "same"]))
        }
        let strong = String(repeating: "s", count: 40)
        #expect(throws: ConfigurationError.self) {
            try ServiceSettings(
                service: .identity,
                reader: reader(["ENVIRONMENT": "production", "INTERNAL_TOKEN": strong, "METRICS_TOKEN": "short"]))
        }
    }
}
