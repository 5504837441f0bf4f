import Foundation
import PlatformKit
import TestSupport
import Testing

/// HTTP/1.1 pipelining through the gateway, on a raw connection: requests written back to back before any answer
/// get their answers in order, each its own, whether the gateway answers itself, refuses, or forwards.
@Suite struct GatewayPipeliningTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestStack { stack in
            // given two users, and one connection carrying six requests in a single write
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            let connection = try await stack.rawConnection()
            var bytes: [UInt8] = []
            bytes += RawHTTPConnection.request("GET", IdentityPaths.me, token: alice.accessToken)
            bytes += RawHTTPConnection.request("GET", "/health/live")
            bytes += RawHTTPConnection.request("GET", IdentityPaths.me, token: bob.accessToken)
            bytes += RawHTTPConnection.request("GET", "/v1/nowhere")
            bytes += RawHTTPConnection.request("GET", IdentityPaths.me)
            bytes += RawHTTPConnection.request("GET", IdentityPaths.me, token: alice.accessToken)
            // when
            try await connection.send(bytes)
            var answers: [RawHTTPConnection.Response] = []
            for _ in 0..<6 {
                answers.append(try #require(try await connection.response(timeout: .seconds(10))))
            }
            // then
            #expect(answers.map(\.status) == [200, 200, 200, 404, 401, 200])
            #expect(answers[0].object["username"] as? String == "alice")
            #expect(answers[1].object["status"] as? String == "ok")
            #expect(answers[2].object["username"] as? String == "bob")
            #expect(answers[3].problemCode == "no_route")
            #expect(answers[4].problemCode == "missing_token")
            #expect(answers[5].object["username"] as? String == "alice")
            // and the connection is still usable afterwards
            try await connection.send(RawHTTPConnection.request("GET", IdentityPaths.me, token: bob.accessToken))
            let after = try await connection.response(timeout: .seconds(10))
            #expect(after?.object["username"] as? String == "bob")
            await connection.close()
        }
    }

    @Test func aPipelinedPostCarriesItsOwnBody() async throws {
        try await withTestStack { stack in
            // given a write holding a forwarded request followed by a login with its body
            let alice = try await stack.register("alice")
            let login = Array(#"{"identifier":"alice","password":"a long enough passphrase"}"#.utf8)
            let connection = try await stack.rawConnection()
            var bytes = RawHTTPConnection.request("GET", IdentityPaths.me, token: alice.accessToken)
            bytes += RawHTTPConnection.request(
                "POST", IdentityPaths.login, headers: [("Content-Type", "application/json")], body: login)
            bytes += RawHTTPConnection.request("GET", "/health/live")
            // when
            try await connection.send(bytes)
            let me = try await connection.response(timeout: .seconds(10))
            let signedIn = try await connection.response(timeout: .seconds(10))
            let live = try await connection.response(timeout: .seconds(10))
            // then
            #expect(me?.object["username"] as? String == "alice")
            #expect(signedIn?.status == 200)
            #expect(signedIn?.object["accessToken"] is String)
            #expect(live?.status == 200)
            await connection.close()
        }
    }

    /// A request the parser refuses gets a 400 problem, but not while an earlier request's answer is due: the
    /// client would take the 400 for that request's answer. Either way the connection closes.
    @Test func aMalformedRequestIsRefusedUnlessItWouldAnswerAnEarlierOne() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let folded = Array("GET /health/live HTTP/1.1\r\nHost: g\r\nX-A: 1\r\n folded\r\n\r\n".utf8)
            // alone, it is refused in words
            let alone = try await stack.rawConnection()
            try await alone.send(folded)
            let refusal = try await alone.response(timeout: .seconds(10))
            #expect(refusal?.status == 400)
            #expect(refusal?.problemCode == "malformed_request")
            #expect(await alone.closedByPeer())
            await alone.close()
            // behind a forwarded request still on its way, nothing is written in that request's place
            let behind = try await stack.rawConnection()
            try await behind.send(RawHTTPConnection.request("GET", IdentityPaths.me, token: alice.accessToken) + folded)
            let answer = try await behind.response(timeout: .seconds(10))
            #expect(answer == nil || answer?.object["username"] as? String == "alice", "got \(answer?.status ?? 0)")
            #expect(await behind.closedByPeer())
            await behind.close()
        }
    }
}
