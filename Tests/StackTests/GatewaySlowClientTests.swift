import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// Clients that hold connections without finishing requests (issue 41): the header and idle timeouts close them,
/// the connection caps bound them, and neither cuts a response in progress or an upload that keeps coming.
@Suite struct GatewaySlowClientTests {
    let clock = ContinuousClock()

    @Test func aThousandTricklingConnectionsAreClosedByTheHeaderTimeoutWhileAClientIsServed() async throws {
        try await withTestStack(configureGateway: { $0.headerTimeout = .seconds(2) }) { stack in
            // given how fast the gateway answers a normal client on 127.0.0.1
            let before = try await latencies(of: stack, count: 20)
            // when 1,000 connections from other loopback addresses (100 each, under the per-address cap) each send
            // a header byte every half second
            let trickling = Task {
                try await withThrowingTaskGroup(of: Duration?.self) { group in
                    for index in 0..<1_000 {
                        group.addTask { try await trickle(stack, from: "127.0.0.\(2 + index / 100)") }
                    }
                    return try await group.reduce(into: [Duration?]()) { $0.append($1) }
                }
            }
            // then the normal client is answered meanwhile about as fast as before (the trickling connections are
            // open for the header timeout's two seconds once they have all connected)
            var during: [Duration] = []
            let window = clock.now + .seconds(3)
            while clock.now < window { during += try await latencies(of: stack, count: 1) }
            let held = try await trickling.value
            // and every trickling connection was closed within the header timeout and some slack (a loaded machine)
            #expect(held.count == 1_000)
            let closedInTime = held.compactMap { $0 }.filter { $0 <= .seconds(8) }
            #expect(
                closedInTime.count == 1_000,
                "closed in time: \(closedInTime.count), slowest after \(held.compactMap { $0 }.max() ?? .zero)")
            #expect(during.count >= 5)
            let bound = max(median(before) * 5, .milliseconds(100))
            #expect(median(during) <= bound, "before \(median(before)), during \(median(during))")
        }
    }

    @Test func aKeptAliveConnectionIsClosedAfterTheIdleTimeoutAndAHeadAfterTheHeaderTimeout() async throws {
        try await withTestStack(configureGateway: {
            $0.idleTimeout = .seconds(1)
            $0.headerTimeout = .seconds(5)
        }) { stack in
            // given a connection that was answered once
            let idle = try await stack.rawConnection()
            // Timed from before the request: the gateway's idle timer starts when it has written the answer, which
            // on a loaded machine can be well before this test has read it.
            let asked = clock.now
            try await idle.send(RawHTTPConnection.request("GET", "/health/live"))
            #expect(try await idle.response()?.status == 200)
            // when it sends nothing more, then the gateway closes it after the idle timeout, not the header one
            #expect(await idle.closedByPeer(within: .seconds(10)))
            let waited = clock.now - asked
            #expect(waited >= .milliseconds(900) && waited < .seconds(4), "closed after \(waited)")
            // given a new connection, when it never finishes its head, then it is closed after the header timeout
            let opened = clock.now
            let slow = try await stack.rawConnection()
            try await slow.send("GET /health/live HTTP/1.1\r\nHost: g")
            #expect(await slow.closedByPeer(within: .seconds(15)))
            #expect(clock.now - opened >= .milliseconds(4_900), "closed after \(clock.now - opened)")
        }
    }

    @Test func onAKeptAliveConnectionTheHeaderTimeoutStartsAtTheNextRequestsFirstByte() async throws {
        try await withTestStack(configureGateway: {
            $0.idleTimeout = .seconds(4)
            $0.headerTimeout = .seconds(1)
        }) { stack in
            // given a connection that was answered once and then waited longer than the header timeout
            let connection = try await stack.rawConnection()
            try await connection.send(RawHTTPConnection.request("GET", "/health/live"))
            #expect(try await connection.response()?.status == 200)
            #expect(await !connection.closedByPeer(within: .milliseconds(1_500)), "closed while idle")
            // when the next request's head starts and never ends
            let started = clock.now
            try await connection.send("GET /health/live HTTP/1.1\r\nHost: g")
            // then the header timeout closes it, well before the idle timeout would have
            #expect(await connection.closedByPeer(within: .seconds(10)))
            let waited = clock.now - started
            #expect(waited >= .milliseconds(900) && waited < .milliseconds(2_400), "closed after \(waited)")
        }
    }

    @Test func aResponseInProgressOutlivesBothTimeouts() async throws {
        // given a service whose answer runs until it closes, and never does
        let upstream = try await MisbehavingUpstream.start(
            .answerRaw("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\n", closing: false))
        let port = upstream.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/stream", .notifications)],
            configureGateway: {
                $0.upstreams[.notifications] = .init(host: "127.0.0.1", port: port)
                $0.publicPaths.insert("/v1/stream/live")
                $0.idleTimeout = .seconds(1)
                $0.headerTimeout = .seconds(1)
            }
        ) { stack in
            let connection = try await stack.rawConnection()
            try await connection.send(RawHTTPConnection.request("GET", "/v1/stream/live"))
            // when the stream runs three times longer than either timeout, then the gateway keeps it open
            #expect(await !connection.closedByPeer(within: .seconds(3)))
            await connection.close()
        }
        await upstream.stop()
    }

    @Test func connectionsOverThePerAddressCapAreClosedAtAccept() async throws {
        try await withTestStack(configureGateway: { $0.maximumConnectionsPerAddress = 3 }) { stack in
            // given three connections from one address, all served
            var held: [RawHTTPConnection] = []
            for _ in 0..<3 { held.append(try await servedConnection(stack, from: "127.0.0.2")) }
            // when a fourth comes from that address, then it is closed without an answer
            let refused = try await stack.rawConnection(from: "127.0.0.2")
            #expect(await refused.closedByPeer(within: .seconds(10)))
            // while another address is still served
            let other = try await servedConnection(stack, from: "127.0.0.3")
            // and once one of the three closes, that address may connect again
            await held.removeFirst().close()
            let again = try await eventuallyServed(stack, from: "127.0.0.2")
            for connection in held + [other, again] { await connection.close() }
        }
    }

    @Test func connectionsOverTheTotalCapAreClosedAtAccept() async throws {
        try await withTestStack(configureGateway: { $0.maximumConnections = 4 }) { stack in
            // given four connections from four addresses, all served
            var held: [RawHTTPConnection] = []
            for index in 0..<4 { held.append(try await servedConnection(stack, from: "127.0.0.\(2 + index)")) }
            // when a fifth comes from a fifth address, then it is closed without an answer
            let refused = try await stack.rawConnection(from: "127.0.0.9")
            #expect(await refused.closedByPeer(within: .seconds(10)))
            // and once one closes, a new one is served
            await held.removeFirst().close()
            let again = try await eventuallyServed(stack, from: "127.0.0.9")
            for connection in held + [again] { await connection.close() }
        }
    }

    @Test func aFourMebibyteUploadTwiceAsLongAsTheAnswerTimeoutIsAnswered() async throws {
        // given a service that answers after reading the whole body, and a two-second answer timeout (30 s by
        // default: the wait is the same, only shorter)
        let upstream = try await MisbehavingUpstream.start(.echo)
        try await withUploadRoute(upstream, configure: { $0.responseHeadTimeout = .seconds(2) }) { connection in
            // when 4 MiB arrive in 40 pieces a tenth of a second apart
            try await sendBody(connection, bytes: 4 << 20, pieces: 40, every: .milliseconds(100))
            let response = try await connection.response(timeout: .seconds(60))
            // then the service's answer comes through, not a 504
            #expect(response?.status == 200)
            #expect(response?.object["bodyBytes"] as? Int == 4 << 20)
        }
    }

    @Test func aServiceThatReadsTheWholeBodyThenNeverAnswersGetsA504AfterTheTimeout() async throws {
        // given a service that reads bodies and never answers, and a two-second answer timeout
        let upstream = try await MisbehavingUpstream.start(.neverAnswer)
        try await withUploadRoute(upstream, configure: { $0.responseHeadTimeout = .seconds(2) }) { connection in
            // when a body takes four seconds to send
            let sent = try await sendBody(connection, bytes: 64 << 10, pieces: 8, every: .milliseconds(500))
            let response = try await connection.response(timeout: .seconds(60))
            // then the 504 comes the timeout after its end, not during it
            #expect(response?.status == 504)
            #expect(response?.problemCode == "gateway_timeout")
            #expect(clock.now - sent >= .milliseconds(1_500), "answered \(clock.now - sent) after the body")
        }
    }

    // MARK: Helpers

    /// Runs `body` with a raw connection to a stack whose public `/v1/upload/file` routes to `upstream`.
    func withUploadRoute(
        _ upstream: MisbehavingUpstream, configure: @escaping @Sendable (inout GatewayConfiguration) -> Void,
        _ body: @Sendable (RawHTTPConnection) async throws -> Void
    ) async throws {
        try await withStandInRoute(
            "/v1/upload", as: .geo, to: upstream, publicPaths: ["/v1/upload/file"], configure: configure, body)
    }

    /// POSTs `bytes` zero bytes in `pieces` pieces `every` apart.
    /// Sends an upload's head, then its body in `pieces`; returns when the last piece began to go out (a loaded
    /// machine may resume this task well after the gateway has the whole body).
    @discardableResult
    func sendBody(_ connection: RawHTTPConnection, bytes: Int, pieces: Int, every interval: Duration) async throws
        -> ContinuousClock.Instant
    {
        let head = "POST /v1/upload/file HTTP/1.1\r\nHost: g\r\nContent-Length: \(bytes)\r\n\r\n"
        try await connection.send(head)
        let piece = bytes / pieces
        var lastPiece = clock.now
        for index in 0..<pieces {
            try await Task.sleep(for: interval)
            let size = index == pieces - 1 ? bytes - piece * (pieces - 1) : piece
            lastPiece = clock.now
            try await connection.send([UInt8](repeating: 0, count: size))
        }
        return lastPiece
    }

    /// How long `count` requests for identity's keys through the gateway take, one after another.
    func latencies(of stack: TestStack, count: Int) async throws -> [Duration] {
        var latencies: [Duration] = []
        for _ in 0..<count {
            let start = clock.now
            let response = try await stack.gateway.get(IdentityPaths.jwks)
            latencies.append(clock.now - start)
            #expect(response.status == 200)
        }
        return latencies
    }

    func median(_ durations: [Duration]) -> Duration {
        durations.isEmpty ? .zero : durations.sorted()[durations.count / 2]
    }

    /// Opens a connection from `source` and sends a request head one byte every half second, for up to 12 s;
    /// how long until the gateway closed it, or `nil` if it did not.
    func trickle(_ stack: TestStack, from source: String) async throws -> Duration? {
        let start = clock.now
        let connection = try await stack.rawConnection(from: source)
        let head =
            Array("GET /health/live HTTP/1.1\r\nHost: gateway.test\r\nX-Padding: ".utf8)
            + Array(repeating: UInt8(ascii: "a"), count: 64)
        for byte in head where clock.now - start < .seconds(12) {
            // A write after the close may fail; the close is what is measured.
            try? await connection.send([byte])
            if await connection.closedByPeer(within: .milliseconds(500)) { return clock.now - start }
        }
        await connection.close()
        return nil
    }

    /// A connection from `source` that the gateway answered once.
    func servedConnection(_ stack: TestStack, from source: String) async throws -> RawHTTPConnection {
        let connection = try await stack.rawConnection(from: source)
        try await connection.send(RawHTTPConnection.request("GET", "/health/live"))
        #expect(try await connection.response()?.status == 200, "from \(source)")
        return connection
    }

    /// A connection from `source` answered once, trying again while the gateway has not yet counted a closed one out.
    func eventuallyServed(_ stack: TestStack, from source: String) async throws -> RawHTTPConnection {
        for _ in 0..<50 {
            let connection = try await stack.rawConnection(from: source)
            try? await connection.send(RawHTTPConnection.request("GET", "/health/live"))
            if let response = try? await connection.response(), response.status == 200 { return connection }
            await connection.close()
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestStackError.didNotStart("a connection from \(source)")
    }
}
