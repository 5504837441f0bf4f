import Foundation
import PlatformKit
import TestSupport
import Testing

/// Request smuggling through the gateway (issue 16 item 1), tried as an attacker would: exact bytes on a
/// raw connection, each attack hiding a second request in what the gateway reads as a body, sent to four
/// targets (the recorder and identity, each with a complete smuggled request and one declaring more body than
/// follows). After each attack another client on the same gateway (so the same upstream pools) asks 200 times
/// who it is and must get its own answer, and what the services recorded shows no smuggled request reached one.
@Suite(.serialized) struct GatewaySmugglingTests {
    /// What the gateway must do with an attack.
    enum Outcome: Sendable {
        /// Refused with `status` (and `code`, for the gateway's own problems), then the connection closed.
        case refused(Int, String?)
        /// Forwarded with its body framed by the gateway: any answer but a 5xx, and the connection stays
        /// in step (a next request on it gets its own answer).
        case forwarded
        /// Forwarded, then the connection closed (a protocol upgrade ends HTTP on it).
        case forwardedThenClosed
    }

    struct Attack: Sendable, CustomTestStringConvertible {
        var name: String
        /// The raw request for a target path and the attacker's token, with a smuggled request inside.
        var bytes: @Sendable (_ path: String, _ token: String, _ smuggled: String) -> String
        var outcome: Outcome
        var testDescription: String { name }
    }

    static func chunked(_ body: String) -> String {
        String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
    }

    static let attacks: [Attack] = [
        Attack(
            name: "TRACE with a body",
            bytes: { path, token, smuggled in
                "TRACE \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .refused(405, "method_not_allowed")),
        Attack(
            name: "TRACE chunked",
            bytes: { path, token, smuggled in
                "TRACE \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + chunked(smuggled)
            }, outcome: .refused(405, "method_not_allowed")),
        Attack(
            name: "CONNECT",
            bytes: { _, _, smuggled in
                "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n\(smuggled)"
            }, outcome: .refused(405, nil)),  // NIO sends no body in answer to a CONNECT
        Attack(
            name: "GET with Transfer-Encoding: Chunked",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: Chunked\r\n\r\n"
                    + chunked(smuggled)
            }, outcome: .forwarded),
        Attack(
            name: "DELETE with Transfer-Encoding: Chunked",
            bytes: { path, token, smuggled in
                "DELETE \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: CHUNKED\r\n\r\n"
                    + chunked(smuggled)
            }, outcome: .forwarded),
        Attack(
            name: "GET with Transfer-Encoding: gzip, chunked",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                    + chunked(smuggled)
            }, outcome: .refused(400, "unsupported_transfer_encoding")),
        Attack(
            name: "DELETE with Transfer-Encoding: gzip, chunked",
            bytes: { path, token, smuggled in
                "DELETE \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
                    + chunked(smuggled)
            }, outcome: .refused(400, "unsupported_transfer_encoding")),
        Attack(
            name: "two Transfer-Encoding: chunked",
            bytes: { path, token, smuggled in
                "POST \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunked(smuggled)
            }, outcome: .refused(400, "malformed_request")),  // llhttp refuses it first
        Attack(
            name: "Transfer-Encoding: identity",
            bytes: { path, token, smuggled in
                "POST \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: identity\r\n\r\n"
                    + smuggled
            }, outcome: .refused(400, "unsupported_transfer_encoding")),
        Attack(
            name: "Content-Length and Transfer-Encoding",
            bytes: { path, token, smuggled in
                "POST \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nContent-Length: 4\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunked(smuggled)
            }, outcome: .refused(400, "malformed_request")),
        Attack(
            name: "two Content-Lengths",
            bytes: { path, token, smuggled in
                "POST \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nContent-Length: 0\r\n"
                    + "Content-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .refused(400, "malformed_request")),
        Attack(
            name: "obs-fold hiding Transfer-Encoding",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nX-Padding: a\r\n"
                    + " Transfer-Encoding: chunked\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .refused(400, "malformed_request")),
        Attack(
            name: "obs-fold in Transfer-Encoding",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: gzip,\r\n"
                    + " chunked\r\n\r\n" + chunked(smuggled)
            }, outcome: .refused(400, "malformed_request")),
        Attack(
            name: "bare LF",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\nHost: g\nAuthorization: Bearer \(token)\nContent-Length: \(smuggled.utf8.count)\n\n"
                    + smuggled
            }, outcome: .refused(400, "malformed_request")),
        Attack(
            name: "a body on HEAD",
            bytes: { path, token, smuggled in
                "HEAD \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .forwarded),
        Attack(
            name: "a body on GET",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .forwarded),
        Attack(
            name: "a body on DELETE",
            bytes: { path, token, smuggled in
                "DELETE \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"
            }, outcome: .forwarded),
        Attack(
            name: "an upgrade request",
            bytes: { path, token, smuggled in
                "GET \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\n\r\n\(smuggled)"
            }, outcome: .forwardedThenClosed),
    ]

    /// A stack with identity, and a recording service under `/v1/echo` that logs every request it parses.
    struct World {
        let stack: TestStack
        let recorder: MisbehavingUpstream
        let attacker: TestUser
        let victim: TestUser
    }

    static func withWorld(_ body: (World) async throws -> Void) async throws {
        let recorder = try await MisbehavingUpstream.start(.echo)
        let port = recorder.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/echo", .social)],
            configureGateway: {
                $0.upstreams[.social] = .init(host: "127.0.0.1", port: port)
                $0.requestsPerMinute = 1_000_000
            }
        ) { stack in
            try await body(
                World(
                    stack: stack, recorder: recorder, attacker: try await stack.register("mallory"),
                    victim: try await stack.register("victor")))
        }
        await recorder.stop()
    }

    /// A complete request the gateway would never forward as such: a profile change, or a path the
    /// recorder marks as smuggled.
    static func smuggledProfileChange(_ token: String, declaredLength: Int? = nil) -> String {
        let body = #"{"displayName":"Smuggled"}"#
        return "PATCH \(IdentityPaths.me) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(declaredLength ?? body.utf8.count)\r\n\r\n\(body)"
    }

    static let smuggledEcho = "GET /v1/echo/smuggled HTTP/1.1\r\nHost: g\r\n\r\n"
    /// Declares more body than follows, so a parser that took it for a request would swallow the next one.
    static let smuggledEchoSwallowing = "POST /v1/echo/smuggled HTTP/1.1\r\nHost: g\r\nContent-Length: 400\r\n\r\nx"

    @Test(arguments: attacks)
    func anAttackNeverReachesAServiceNorAnotherClient(attack: Attack) async throws {
        try await Self.withWorld { world in
            let token = world.attacker.accessToken
            let targets = [
                ("/v1/echo/attack", Self.smuggledEcho), ("/v1/echo/attack", Self.smuggledEchoSwallowing),
                (IdentityPaths.me, Self.smuggledProfileChange(token)),
                (IdentityPaths.login, Self.smuggledProfileChange(token, declaredLength: 400)),
            ]
            // when
            for (path, smuggled) in targets {
                try await Self.send(attack, path: path, token: token, smuggled: smuggled, in: world)
            }
            // then
            try await Self.victimGetsOwnAnswers(world, count: 200, label: attack.name)
            let attacker = try await world.stack.gateway.get(IdentityPaths.me, token: token)
            #expect(try attacker.decode(WireMyProfile.self).displayName != "Smuggled", "the smuggled PATCH never ran")
            let recorded = world.recorder.requests
            #expect(
                !recorded.contains { $0.uri.contains("smuggled") }, "\(recorded.filter { $0.uri.contains("smuggled") })"
            )
            #expect(
                recorded.allSatisfy { ["/v1/echo/attack", "/v1/echo/attack-check", "/v1/echo/me"].contains($0.uri) })
            #expect(
                recorded.filter { $0.uri == "/v1/echo/me" }.allSatisfy {
                    $0.authorization == "Bearer \(world.victim.accessToken)"
                })
        }
    }

    /// Sends one attack and checks the attacker's own connection sees the outcome it must.
    static func send(_ attack: Attack, path: String, token: String, smuggled: String, in world: World) async throws {
        let label = "\(attack.name) on \(path)"
        let connection = try await world.stack.rawConnection()
        defer { Task { await connection.close() } }
        try await connection.send(attack.bytes(path, token, smuggled))
        let first = try await connection.response(toHEAD: attack.name.contains("HEAD"), timeout: .seconds(10))
        let answer = try #require(first, "\(label): no answer")
        switch attack.outcome {
        case .refused(let status, let code):
            #expect(answer.status == status, "\(label): \(answer.text)")
            if let code { #expect(answer.problemCode == code, "\(label)") }
            #expect(await connection.closedByPeer(within: .seconds(10)), "\(label): the connection is closed")
        case .forwarded:
            #expect(answer.status < 500, "\(label): \(answer.status) \(answer.text)")
            // The connection is in step: the next request gets its own answer, not the smuggled one's.
            try await connection.send(RawHTTPConnection.request("GET", "/v1/echo/attack-check", token: token))
            let next = try await connection.response(timeout: .seconds(10))
            #expect(next?.status == 200, "\(label)")
            let echo = try next?.decode(WireUpstreamEcho.self)
            #expect(echo?.uri == "/v1/echo/attack-check", "\(label)")
            #expect(echo?.authorization == "Bearer \(token)", "\(label)")
        case .forwardedThenClosed:
            #expect(answer.status < 500, "\(label): \(answer.status) \(answer.text)")
            #expect(answer.header("connection")?.lowercased() == "close", "\(label)")
            #expect(await connection.closedByPeer(within: .seconds(10)), "\(label): the connection is closed")
        }
    }

    /// The victim, on four fresh keep-alive connections (so on every event loop's pool), asks who it is
    /// `count` times, half from identity and half from the recorder.
    static func victimGetsOwnAnswers(_ world: World, count: Int, label: String) async throws {
        let token = world.victim.accessToken
        let id = world.victim.id
        let stack = world.stack
        let connections = 4
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<connections {
                group.addTask {
                    let connection = try await stack.rawConnection()
                    var wrong: [String] = []
                    for index in 0..<(count / connections) {
                        let path = index.isMultiple(of: 2) ? IdentityPaths.me : "/v1/echo/me"
                        try await connection.send(RawHTTPConnection.request("GET", path, token: token))
                        let response = try await connection.response(timeout: .seconds(10))
                        let own =
                            index.isMultiple(of: 2)
                            ? (try? response?.decode(WireMyProfile.self))?.id == id
                            : (try? response?.decode(WireUpstreamEcho.self))?.authorization == "Bearer \(token)"
                        if response?.status != 200 || !own {
                            wrong.append("\(path): \(response?.status ?? 0) \(response?.text.prefix(120) ?? "closed")")
                        }
                    }
                    await connection.close()
                    return wrong
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(label): \(mismatches.prefix(3))")
    }
}
