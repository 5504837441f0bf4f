import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// A service with several replicas behind the gateway (issue 42): new connections go to each replica in turn, and
/// one that refuses connections is passed over without failing a request.
@Suite struct GatewayReplicaTests {
    /// A replica answering every request with its `name` and closing the connection, so that each request needs a
    /// new upstream connection and the gateway's choice of replica shows in every answer.
    static func replica(_ name: String) async throws -> MisbehavingUpstream {
        try await MisbehavingUpstream.start(
            .answerRaw(
                "HTTP/1.1 200 OK\r\nContent-Length: \(name.utf8.count)\r\nConnection: close\r\n\r\n\(name)",
                closing: true))
    }

    @Test func requestsAreSpreadOverTheReplicasAndOneThatRefusesIsSkipped() async throws {
        let first = try await Self.replica("first")
        let second = try await Self.replica("second")
        let firstPort = first.port
        let secondPort = second.port
        // Port 1: nothing listens there, as a replica that is down.
        let addresses: [GatewayConfiguration.Upstream.Address] = [
            .init(host: "127.0.0.1", port: 1), .init(host: "127.0.0.1", port: firstPort),
            .init(host: "127.0.0.1", port: secondPort),
        ]
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/replicas", .social)],
            configureGateway: {
                $0.upstreams[.social] = .init(addresses: addresses)
                $0.publicPaths.insert("/v1/replicas/ping")
            }
        ) { stack in
            var answers: [String: Int] = [:]
            for attempt in 1...12 {
                let connection = try await stack.rawConnection()
                try await connection.send(RawHTTPConnection.request("GET", "/v1/replicas/ping"))
                let response = try #require(try await connection.response(), "attempt \(attempt)")
                #expect(response.status == 200, "attempt \(attempt): a replica being down fails no request")
                answers[response.text, default: 0] += 1
                await connection.close()
            }
            #expect(answers.keys.sorted() == ["first", "second"])
            #expect((answers["first"] ?? 0) >= 3 && (answers["second"] ?? 0) >= 3, "\(answers)")

            // A replica going away: every request still answered, by the other.
            await first.stop()
            for attempt in 1...6 {
                let connection = try await stack.rawConnection()
                try await connection.send(RawHTTPConnection.request("GET", "/v1/replicas/ping"))
                let response = try #require(try await connection.response(), "after \(attempt)")
                #expect(response.status == 200 && response.text == "second", "after \(attempt)")
                await connection.close()
            }
        }
        await second.stop()
    }
}
