import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// How the gateway relays answers it reads itself (`UpstreamResponseParser`): chunked, unframed, to HEAD, to
/// HTTP/1.0 clients, and answers that are not HTTP. Raw bytes on both sides, so nothing frames them for us.
@Suite struct GatewayRelayTests {
    static let chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
        + "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n"

    /// Runs `body` with a stack whose `/v1/raw` routes to `upstream`, a signed-in user's token and a raw
    /// connection to the gateway.
    func withRawRoute(
        _ upstream: MisbehavingUpstream, _ body: @Sendable (RawHTTPConnection, String) async throws -> Void
    ) async throws {
        let port = upstream.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/raw", .social)],
            configureGateway: { $0.upstreams[.social] = .init(host: "127.0.0.1", port: port) }
        ) { stack in
            let alice = try await stack.register("alice", via: stack.direct(.identity))
            let connection = try await stack.rawConnection()
            try await body(connection, alice.accessToken)
            await connection.close()
        }
        await upstream.stop()
    }

    @Test func aChunkedAnswerReachesAnHTTP11ClientChunkedOnAPooledConnection() async throws {
        let upstream = try await MisbehavingUpstream.start(.answerRaw(Self.chunked, closing: false))
        try await withRawRoute(upstream) { connection, token in
            for attempt in 1...3 {
                try await connection.send(RawHTTPConnection.request("GET", "/v1/raw/\(attempt)", token: token))
                let response = try #require(try await connection.response(), "attempt \(attempt)")
                #expect(response.status == 200)
                #expect(response.header("transfer-encoding") == "chunked")
                #expect(response.text == "hello, world", "attempt \(attempt)")
                #expect(response.header("x-request-id") != nil)
            }
        }
        #expect(upstream.connectionCount == 1, "the service's connection was reused")
    }

    @Test func anHTTP10ClientGetsAChunkedAnswerDechunkedUntilTheGatewayCloses() async throws {
        let upstream = try await MisbehavingUpstream.start(.answerRaw(Self.chunked, closing: false))
        try await withRawRoute(upstream) { connection, token in
            try await connection.send(
                "GET /v1/raw/old HTTP/1.0\r\nHost: g\r\nConnection: keep-alive\r\nAuthorization: Bearer \(token)\r\n\r\n"
            )
            let response = try #require(try await connection.response())
            #expect(response.status == 200)
            #expect(response.header("transfer-encoding") == nil)
            #expect(response.header("connection")?.lowercased() == "close")
            #expect(response.text == "hello, world")
            #expect(await connection.closedByPeer())
        }
    }

    @Test func anUnframedAnswerIsChunkedForTheClientAndItsServiceConnectionNotReused() async throws {
        let upstream = try await MisbehavingUpstream.start(
            .answerRaw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end", closing: true))
        try await withRawRoute(upstream) { connection, token in
            for attempt in 1...2 {
                try await connection.send(RawHTTPConnection.request("GET", "/v1/raw/\(attempt)", token: token))
                let response = try #require(try await connection.response(), "attempt \(attempt)")
                #expect(response.status == 200)
                #expect(response.header("transfer-encoding") == "chunked")
                #expect(response.text == "until the end", "attempt \(attempt)")
            }
        }
        #expect(upstream.connectionCount == 2)
    }

    @Test func aHEADAnswerKeepsItsLengthAndHasNoBody() async throws {
        let upstream = try await MisbehavingUpstream.start(
            .answerRaw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n", closing: false))
        try await withRawRoute(upstream) { connection, token in
            for attempt in 1...2 {
                try await connection.send(RawHTTPConnection.request("HEAD", "/v1/raw/\(attempt)", token: token))
                let response = try #require(try await connection.response(toHEAD: true), "attempt \(attempt)")
                #expect(response.status == 200)
                #expect(response.header("content-length") == "5")
            }
            // nothing was sent after the heads: the next answer is the next request's
            try await connection.send(RawHTTPConnection.request("GET", "/health/live"))
            #expect(try await connection.response()?.object["status"] as? String == "ok")
        }
        #expect(upstream.connectionCount == 1)
    }

    @Test func anAnswerThatIsNotHTTPIsA502AndItsConnectionIsDropped() async throws {
        let upstream = try await MisbehavingUpstream.start(.answerRaw("SSH-2.0-OpenSSH_9.6\r\n\r\n", closing: false))
        try await withRawRoute(upstream) { connection, token in
            for attempt in 1...2 {
                try await connection.send(RawHTTPConnection.request("GET", "/v1/raw/\(attempt)", token: token))
                let response = try #require(try await connection.response(), "attempt \(attempt)")
                #expect(response.status == 502)
                #expect(response.problemCode == "bad_gateway")
            }
        }
        #expect(upstream.connectionCount == 2)
    }
}
