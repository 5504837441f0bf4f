import Foundation
import LocalStackKit
import Logging
import NIOCore
import NIOPosix
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// The local stack refuses bad settings, an unwritable data folder and busy ports with one line that names
/// the variable to change, before anything starts.
@Suite struct LocalStackTests {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("local-stack-\(UUID().uuidString)").path

    func refusal(_ environment: [String: String]) -> String? {
        do {
            _ = try LocalStack.preflight(environment: environment.merging(["DATA_DIR": data]) { given, _ in given })
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func portsAreConfigurable() throws {
        let settings = try LocalStackSettings(environment: ["GATEWAY_PORT": "9080", "SERVICE_PORT_BASE": "9181"])
        #expect(settings.gatewayPort == 9080)
        #expect(LocalStackSettings.services.map(settings.port(of:)) == Array(9181...9187))
        #expect(settings.url(of: .notifications) == "http://127.0.0.1:9187")
        // the defaults are every service's own default port
        let defaults = try LocalStackSettings(environment: [:])
        #expect(LocalStackSettings.services.allSatisfy { defaults.port(of: $0) == $0.defaultPort })
        #expect(defaults.gatewayPort == 8080)
    }

    @Test(arguments: [
        (["GATEWAY_PORT": "abc"], "GATEWAY_PORT"), (["GATEWAY_PORT": "70000"], "GATEWAY_PORT"),
        (["SERVICE_PORT_BASE": "65530"], "SERVICE_PORT_BASE"), (["SERVICE_PORT_BASE": "-1"], "SERVICE_PORT_BASE"),
        (["GATEWAY_PORT": "18083", "SERVICE_PORT_BASE": "18081"], "GATEWAY_PORT"),
    ])
    func badSettingsAreOneLineNamingTheVariable(environment: [String: String], variable: String) {
        let message = refusal(environment)
        #expect(message?.contains(variable) == true, "\(message ?? "accepted")")
        #expect(message?.contains("\n") == false)
    }

    @Test func anUnwritableDataFolderIsNamed() throws {
        // a folder under a regular file cannot exist, even for root
        let file = data + "-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let message = try #require(
            refusal(["DATA_DIR": file + "/data"]))
        #expect(message.contains("DATA_DIR"))
        #expect(message.contains("Not a directory"))
    }

    @Test func aPortInUseIsNamedWithItsVariable() async throws {
        // given something listening on one service's port and on the gateway's
        let group = MultiThreadedEventLoopGroup.singleton
        // The ports around it are checked too (the gateway's and the first two services'), and a test running
        // alongside may hold one of them: then the answer names that port, and another busy port is tried.
        var attempt: (port: Int, service: String?, gateway: String?) = (0, nil, nil)
        for _ in 0..<5 {
            let busy = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(busy.localAddress?.port)
            // when the services would take it (as the third of them), or the gateway would
            attempt = (
                port, refusal(["SERVICE_PORT_BASE": String(port - 2), "GATEWAY_PORT": String(port - 10)]),
                refusal(["SERVICE_PORT_BASE": String(port + 10), "GATEWAY_PORT": String(port)])
            )
            try await busy.close()
            if attempt.service?.contains("port \(port) ") == true { break }
        }
        let (port, service, gateway) = attempt
        // then each names the port, who wanted it and the variable
        #expect(service?.contains("port \(port) (messaging) is already in use") == true, "\(service ?? "")")
        #expect(service?.contains("SERVICE_PORT_BASE") == true)
        #expect(gateway?.contains("port \(port) (the gateway) is already in use") == true, "\(gateway ?? "")")
        #expect(gateway?.contains("GATEWAY_PORT") == true)
    }

    @Test func runAnswersABadSettingWithExitStatusOne() async {
        #expect(await LocalStack.run(environment: ["GATEWAY_PORT": "none", "DATA_DIR": data]) == 1)
    }
}

/// `DATABASE_URL` for the local stack names a PostgreSQL server; each PostgreSQL service gets its own database.
@Suite struct LocalStackPostgresTests {
    @Test func eachPostgresServiceGetsItsOwnDatabaseOnTheServer() async throws {
        let server = try await ThrowawayPostgres.shared().serverURL
        let environment = ["DATABASE_URL": "postgres://postgres@127.0.0.1:\(server.port)?sslmode=disable"]
        let databases = try await LocalStack.postgresDatabases(environment: environment)
        #expect(Set(databases.keys) == Set(ServiceName.allCases))
        for (service, url) in databases {
            let parsed = try PostgresURL(url)
            #expect(parsed.database == "platform_\(service.rawValue)")
            #expect(parsed.tlsMode == .disable, "the server URL's parameters are kept")
            // It exists: a start-up connection to it succeeds.
            _ = try await PostgresServiceDatabase.open(parsed, migrations: [], logger: Logger(label: "test"))
        }
        // A second start finds them there.
        #expect(try await LocalStack.postgresDatabases(environment: environment) == databases)
        #expect(try await LocalStack.postgresDatabases(environment: [:]).isEmpty, "unset: SQLite")
        // Some services only: the others keep SQLite.
        var some = environment
        some["POSTGRES_SERVICES"] = "identity, household,messaging"
        let some3 = try await LocalStack.postgresDatabases(environment: some)
        #expect(Set(some3.keys) == [.identity, .household, .messaging])
        some["POSTGRES_SERVICES"] = "identity,billing"
        await #expect { _ = try await LocalStack.postgresDatabases(environment: some) } throws: { error in
            "\(error)".contains("POSTGRES_SERVICES") && "\(error)".contains("billing")
        }
    }

    @Test func aURLNamingADatabaseOrMalformedIsOneLineNamingTheVariable() async throws {
        for value in ["postgres://me@db.internal:5432/platform", "mysql://me@db.internal"] {
            do {
                _ = try await LocalStack.postgresDatabases(environment: ["DATABASE_URL": value])
                Issue.record("\(value) was accepted")
            } catch {
                #expect("\(error)".contains("DATABASE_URL"), "\(error)")
                #expect(!"\(error)".contains("\n"))
            }
        }
    }
}
