import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// What the gateway sends its services again, and which answers it refuses to relay (issue 41): a request goes
/// again on a new connection only if running it twice does no harm, and an answer with both framing headers is
/// never relayed.
@Suite struct GatewayReplayTests {
    /// Runs `body` with a stack whose public `/v1/flaky/...` paths route to `upstream`, and a raw connection to the
    /// gateway (one connection, so its requests share one event loop and its pool of service connections).
    func withFlakyRoute(
        _ upstream: MisbehavingUpstream, _ body: @Sendable (RawHTTPConnection) async throws -> Void
    ) async throws {
        try await withStandInRoute(
            "/v1/flaky", as: .social, to: upstream,
            publicPaths: ["/v1/flaky/warm", "/v1/flaky/pay", "/v1/flaky/read", "/v1/flaky/again"], body)
    }

    /// Sends `method path` (a small JSON body for a POST) and reads the answer.
    func exchange(
        _ connection: RawHTTPConnection, _ method: String, _ path: String, headers: [(String, String)] = []
    ) async throws -> RawHTTPConnection.Response {
        let body = method == "POST" ? Array(#"{"amount":10}"#.utf8) : []
        try await connection.send(RawHTTPConnection.request(method, path, headers: headers, body: body))
        return try #require(try await connection.response(), "\(method) \(path)")
    }

    @Test func aPostTheServiceReadThenDroppedIsNotSentAgain() async throws {
        // given a service that answers the first request on each connection and closes on the second, after reading it
        let upstream = try await MisbehavingUpstream.start(.closeSecondRequestOnEachConnection)
        try await withFlakyRoute(upstream) { connection in
            #expect(try await exchange(connection, "GET", "/v1/flaky/warm").status == 200)
            // when a payment goes out on the pooled connection and the service closes it unanswered
            let payment = try await exchange(connection, "POST", "/v1/flaky/pay")
            // then the client learns it failed, and the service saw it once
            #expect(payment.status == 502)
            #expect(payment.problemCode == "bad_gateway")
            #expect(upstream.requests.filter { $0.uri == "/v1/flaky/pay" }.count == 1)
            #expect(upstream.connectionCount == 1, "no new connection was opened for it")
        }
    }

    @Test func aGetAndAPostWithAnIdempotencyKeyAreSentAgainOnANewConnection() async throws {
        let upstream = try await MisbehavingUpstream.start(.closeSecondRequestOnEachConnection)
        try await withFlakyRoute(upstream) { connection in
            // given a pooled connection the service will drop at the next request
            #expect(try await exchange(connection, "GET", "/v1/flaky/warm").status == 200)
            // when a GET goes out on it, then it is answered from a new connection
            #expect(try await exchange(connection, "GET", "/v1/flaky/read").status == 200)
            #expect(upstream.requests.filter { $0.uri == "/v1/flaky/read" }.map(\.connection) == [1, 2])
            // when a POST with an Idempotency-Key goes out on the next pooled one, then it is too
            let payment = try await exchange(
                connection, "POST", "/v1/flaky/again", headers: [("Idempotency-Key", "k-1")])
            #expect(payment.status == 200)
            #expect(upstream.requests.filter { $0.uri == "/v1/flaky/again" }.map(\.connection) == [2, 3])
        }
    }

    @Test func aGetANewConnectionClosedUnansweredIsSentAgainAndAPostIsNot() async throws {
        // given a service replica that is stopping: it closes the first new connection without answering
        let upstream = try await MisbehavingUpstream.start(.closeFirstConnectionUnanswered)
        try await withFlakyRoute(upstream) { connection in
            // when a GET goes out on a new connection and is dropped, then it is answered from another one
            let read = try await exchange(connection, "GET", "/v1/flaky/read")
            #expect(read.status == 200)
            #expect(upstream.requests.filter { $0.uri == "/v1/flaky/read" }.map(\.connection) == [1, 2])
        }
        let again = try await MisbehavingUpstream.start(.closeFirstConnectionUnanswered)
        try await withFlakyRoute(again) { connection in
            // a payment without an Idempotency-Key is not sent twice
            let payment = try await exchange(connection, "POST", "/v1/flaky/pay")
            #expect(payment.status == 502)
            #expect(payment.problemCode == "bad_gateway")
            #expect(again.requests.filter { $0.uri == "/v1/flaky/pay" }.count == 1)
        }
    }

    @Test func anAnswerWithBothContentLengthAndTransferEncodingIsA502AndItsConnectionIsDropped() async throws {
        // given a service that frames its answer both ways
        let upstream = try await MisbehavingUpstream.start(
            .answerRaw(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                closing: false))
        try await withFlakyRoute(upstream) { connection in
            for attempt in 1...2 {
                // when a client asks
                let response = try await exchange(connection, "GET", "/v1/flaky/read")
                // then it gets neither framing relayed, but a 502
                #expect(response.status == 502, "attempt \(attempt)")
                #expect(response.problemCode == "bad_gateway")
                #expect(response.header("transfer-encoding") == nil)
            }
            // and the connection carrying it is not pooled
            #expect(upstream.connectionCount == 2)
            // and the client's connection still works
            #expect(try await exchange(connection, "GET", "/health/live").status == 200)
        }
    }
}
