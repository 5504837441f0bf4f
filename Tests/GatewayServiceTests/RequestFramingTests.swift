import Configuration
import NIOHTTP1
import PlatformKit
import Testing

@testable import GatewayService

/// How the gateway reads a client's body framing, and what it refuses (issue 16 item 1).
@Suite struct RequestFramingTests {
    func head(_ method: HTTPMethod = .POST, _ headers: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: method, uri: "/v1/x", headers: HTTPHeaders(headers))
    }

    @Test(arguments: [
        ([("Content-Length", "12")], RequestFraming.Body.length(12)),
        ([("content-length", " 7 ")], .length(7)),
        ([("Content-Length", "0")], .none),
        ([], .none),
        ([("Transfer-Encoding", "chunked")], .chunked),
        ([("transfer-encoding", "Chunked")], .chunked),
        ([("TRANSFER-ENCODING", " CHUNKED\t")], .chunked),
    ])
    func accepted(headers: [(String, String)], body: RequestFraming.Body) throws {
        #expect(try RequestFraming(head(.POST, headers)).body == body)
        #expect(try RequestFraming(head(.GET, headers)).body == body, "a GET's body is framed like any other")
    }

    @Test(arguments: [
        ([("Transfer-Encoding", "gzip, chunked")], "unsupported_transfer_encoding"),
        ([("Transfer-Encoding", "chunked, gzip")], "unsupported_transfer_encoding"),
        ([("Transfer-Encoding", "identity")], "unsupported_transfer_encoding"),
        ([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], "unsupported_transfer_encoding"),
        ([("Transfer-Encoding", "xchunked")], "unsupported_transfer_encoding"),
        ([("Transfer-Encoding", "")], "unsupported_transfer_encoding"),
        ([("Content-Length", "5"), ("Transfer-Encoding", "chunked")], "conflicting_framing"),
        ([("Content-Length", "5"), ("Content-Length", "5")], "invalid_content_length"),
        ([("Content-Length", "5, 5")], "invalid_content_length"),
        ([("Content-Length", "-1")], "invalid_content_length"),
        ([("Content-Length", "+5")], "invalid_content_length"),
        ([("Content-Length", "")], "invalid_content_length"),
        ([("Content-Length", "9223372036854775808")], "invalid_content_length"),
        ([("Content-Length", "0x10")], "invalid_content_length"),
    ])
    func refused(headers: [(String, String)], code: String) {
        do {
            _ = try RequestFraming(head(.POST, headers))
            Issue.record("\(headers) was accepted")
        } catch {
            #expect(error.code == code)
            #expect(error.statusCode == 400)
        }
    }

    @Test(arguments: [HTTPMethod.TRACE, .CONNECT])
    func traceAndConnectAreRefused(method: HTTPMethod) {
        do {
            _ = try RequestFraming(head(method, []))
            Issue.record("\(method) was accepted")
        } catch {
            #expect(error.statusCode == 405)
            #expect(error.code == "method_not_allowed")
        }
    }

    @Test func anUpgradeRequestIsMarked() throws {
        #expect(try RequestFraming(head(.GET, [("Connection", "Upgrade"), ("Upgrade", "websocket")])).upgrade)
        #expect(try !RequestFraming(head(.GET, [("Connection", "keep-alive")])).upgrade)
    }

    @Test(arguments: [
        ("content-length", true), ("Transfer-Encoding", true), ("X-INTERNAL-TOKEN", true), ("te", true),
        ("Connection", true), ("x-forwarded-for", true), ("X-Request-Id", true), ("expect", true),
        (PlatformHeaders.internalToken, true), (PlatformHeaders.forwardedFor, true), (PlatformHeaders.requestID, true),
        ("Authorization", false), ("content-type", false), ("tE1", false), ("contentxlength", false),
        ("content_length", false), ("Host", false),
    ])
    func droppedRequestHeaders(name: String, dropped: Bool) {
        #expect(GatewayHandler.isDroppedRequestHeader(name) == dropped)
    }
}

/// The gateway's configuration from the environment.
@Suite struct GatewayConfigurationTests {
    @Test func theServiceCredentialIsReadFromInternalToken() throws {
        let set = try GatewayConfiguration(
            reader: ConfigReader(
                provider: EnvironmentVariablesProvider(environmentVariables: ["INTERNAL_TOKEN": "s3cret"])))
        #expect(set.internalToken == "s3cret")
        let unset = try GatewayConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [:])))
        #expect(unset.internalToken == nil)
    }

    @Test func theScrapeCredentialIsReadFromMetricsTokenAndDiffersFromTheServiceCredential() throws {
        func configuration(_ environment: [String: String]) throws -> GatewayConfiguration {
            try GatewayConfiguration(
                reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
        }
        #expect(try configuration(["INTERNAL_TOKEN": "s", "METRICS_TOKEN": "m"]).metricsToken == "m")
        #expect(try configuration(["INTERNAL_TOKEN": "s"]).metricsToken == nil)
        #expect(throws: GatewayConfigurationError.self) {
            try configuration(["INTERNAL_TOKEN": "same", "METRICS_TOKEN": "same"])
        }
        for limit in ["0", "-1", "1000000001"] {
            #expect(throws: GatewayConfigurationError.self) { try configuration(["RATE_LIMIT_PER_MINUTE": limit]) }
        }
    }

    @Test func appLinksAreReadFromTheirVariables() throws {
        let fingerprint = (0..<32).map { String(format: "%02x", $0) }.joined(separator: ":")
        let set = try GatewayConfiguration(
            reader: ConfigReader(
                provider: EnvironmentVariablesProvider(environmentVariables: [
                    "APP_LINKS_APPLE_APP_IDS": "T1.com.a, T2.com.b",
                    "APP_LINKS_ANDROID_APPS": "com.a=\(fingerprint)|\(fingerprint),com.b=\(fingerprint)",
                    "APP_LINKS_PATHS": "/reset-password",
                ])))
        #expect(set.appLinks.appleAppIDs == ["T1.com.a", "T2.com.b"])
        #expect(set.appLinks.androidApps.map(\.package) == ["com.a", "com.b"])
        #expect(set.appLinks.androidApps[0].fingerprints == [fingerprint.uppercased(), fingerprint.uppercased()])
        #expect(set.appLinks.paths == ["/reset-password"])
        let unset = try GatewayConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [:])))
        #expect(unset.appLinks.appleDocument == nil && unset.appLinks.androidDocument == nil)
        #expect(unset.appLinks.paths == AppLinks.defaultPaths)
        for bad in ["com.a", "com.a=zz", "=\(fingerprint)"] {
            #expect(throws: GatewayConfigurationError.self) {
                try GatewayConfiguration(
                    reader: ConfigReader(
                        provider: EnvironmentVariablesProvider(environmentVariables: ["APP_LINKS_ANDROID_APPS": bad])))
            }
        }
    }

    @Test func slowClientTimeoutsAndConnectionCapsAreReadFromTheirVariables() throws {
        let set = try GatewayConfiguration(
            reader: ConfigReader(
                provider: EnvironmentVariablesProvider(environmentVariables: [
                    "HEADER_TIMEOUT_SECONDS": "3", "IDLE_TIMEOUT_SECONDS": "20", "MAX_CONNECTIONS": "500",
                    "MAX_CONNECTIONS_PER_ADDRESS": "16",
                ])))
        #expect(set.headerTimeout == .seconds(3) && set.idleTimeout == .seconds(20))
        #expect(set.maximumConnections == 500 && set.maximumConnectionsPerAddress == 16)
        let unset = try GatewayConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [:])))
        #expect(unset.headerTimeout == .seconds(10) && unset.idleTimeout == .seconds(60))
        #expect(unset.maximumConnections == 10_000 && unset.maximumConnectionsPerAddress == 256)
        // Zero would close every connection at once (or accept none).
        let names = [
            "HEADER_TIMEOUT_SECONDS", "IDLE_TIMEOUT_SECONDS", "MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_ADDRESS",
        ]
        for name in names {
            #expect(throws: GatewayConfigurationError.self, "\(name)") {
                try GatewayConfiguration(
                    reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [name: "0"])))
            }
        }
    }
}

/// Which requests the gateway may send again when a pooled connection fails before an answer (issue 41).
@Suite struct ReplayTests {
    @Test(arguments: [
        (HTTPMethod.GET, [(String, String)](), true), (.HEAD, [], true), (.PUT, [], true), (.DELETE, [], true),
        (.OPTIONS, [], true), (.POST, [], false), (.PATCH, [], false),
        (.POST, [("Idempotency-Key", "8e0f")], true), (.PATCH, [("idempotency-key", "8e0f")], true),
    ])
    func onlyRequestsThatMayRunTwiceAreReplayed(method: HTTPMethod, headers: [(String, String)], replayable: Bool) {
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: "/v1/x", headers: HTTPHeaders(headers))
        #expect(GatewayHandler.isReplayable(head) == replayable)
    }
}
