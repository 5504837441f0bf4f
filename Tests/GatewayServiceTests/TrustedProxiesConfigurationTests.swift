import Configuration
import PlatformKit
import Testing

@testable import GatewayService

/// `TRUSTED_PROXIES` from the environment (issue 41).
@Suite struct TrustedProxiesConfigurationTests {
    func configuration(_ environment: [String: String]) throws -> GatewayConfiguration {
        try GatewayConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }

    @Test func trustedProxiesAreReadFromTheirVariable() throws {
        let set = try configuration(["TRUSTED_PROXIES": "10.0.0.0/8, fd00::/8"])
        #expect(set.trustedProxies.ranges.count == 2)
        #expect(set.trustedProxies.contains(IPAddress("10.1.2.3")!))
        #expect(set.trustedProxies.contains(IPAddress("fd00::1")!))
        #expect(try configuration([:]).trustedProxies.isEmpty, "no proxy is trusted unless named")
    }

    @Test func aMalformedEntryStopsStartUpNamingTheVariable() {
        do {
            _ = try configuration(["TRUSTED_PROXIES": "10.0.0.0/8, 10.0.0.0/33"])
            Issue.record("a malformed entry was accepted")
        } catch let error as GatewayConfigurationError {
            #expect(error.description.hasPrefix("TRUSTED_PROXIES: `10.0.0.0/33` is not a CIDR"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
