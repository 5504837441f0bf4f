import Configuration
import PlatformKit
import Testing

@testable import GatewayService

/// `<SERVICE>_URL` naming several replicas (issue 42).
@Suite struct UpstreamReplicasConfigurationTests {
    func configuration(_ environment: [String: String]) throws -> GatewayConfiguration {
        try GatewayConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }

    @Test func aCommaSeparatedListNamesEveryReplica() throws {
        let set = try configuration(["HOUSEHOLD_URL": "http://household-1:8083, http://household-2:8083"])
        #expect(
            set.upstreams[.household]?.addresses == [
                .init(host: "household-1", port: 8083), .init(host: "household-2", port: 8083),
            ])
        #expect(set.upstreams[.identity]?.addresses == [.init(host: "127.0.0.1", port: 8081)])
    }

    @Test func aReplicaThatIsNotHTTPStopsStartUpNamingTheVariable() {
        for value in ["http://a:1,ftp://b:2", "http://a:1,", "http://a:1/path"] {
            do {
                _ = try configuration(["MESSAGING_URL": value])
                Issue.record("\(value) was accepted")
            } catch let error as GatewayConfigurationError {
                #expect(error.description.hasPrefix("MESSAGING_URL must be http://host:port"), "\(value)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}
