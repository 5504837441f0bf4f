import Foundation
import PlatformKit
import TestSupport
import Testing

/// Refresh-token rotation, reuse detection, sign-out and the session list.
@Suite struct SessionTests {
    func refresh(_ stack: TestStack, _ token: String) async throws -> APIResponse {
        try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": token])
    }

    @Test func refreshingRotatesTheToken() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let first = try await refresh(stack, alice.refreshToken)
            #expect(first.status == 200)
            let pair = try first.decode(WireTokenPair.self)
            let next = pair.refreshToken
            #expect(next != alice.refreshToken)
            #expect(pair.sessionId == alice.sessionID)
            let access = pair.accessToken
            #expect(try await stack.gateway.get(IdentityPaths.me, token: access).status == 200)
            #expect(try await refresh(stack, next).status == 200)
        }
    }

    @Test func aRotatedTokenIsAcceptedWithinTheGraceWindowOnly() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let first = try await refresh(stack, alice.refreshToken)
            let newest = try first.decode(WireTokenPair.self).refreshToken
            // within 10 s: two requests of one app racing with the same token both succeed
            stack.clock.advance(by: 5)
            #expect(try await refresh(stack, alice.refreshToken).status == 200)
            // outside the window the reuse is treated as theft: the whole session is revoked
            stack.clock.advance(by: 30)
            let reused = try await refresh(stack, alice.refreshToken)
            #expect(reused.status == 401)
            #expect(reused.problem?.code == "refresh_token_reused")
            let afterRevocation = try await refresh(stack, newest)
            #expect(afterRevocation.status == 401)
            #expect(afterRevocation.problem?.code == "invalid_refresh_token")
        }
    }

    @Test func unknownRefreshTokensAreRejected() async throws {
        try await withTestStack { stack in
            for token in ["", "nonsense", String(repeating: "x", count: 300)] {
                let response = try await refresh(stack, token)
                #expect(response.status == 401)
                #expect(response.problem?.code == "invalid_refresh_token")
            }
        }
    }

    @Test func loggingOutEndsThisSessionOnly() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let phone = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": alice.password])
            let phoneRefresh = try phone.decode(WireTokenPair.self).refreshToken
            #expect(try await stack.gateway.post(IdentityPaths.logout, token: alice.accessToken).status == 204)
            #expect(try await refresh(stack, alice.refreshToken).status == 401)
            #expect(try await refresh(stack, phoneRefresh).status == 200)
        }
    }

    @Test func loggingOutEverywhereEndsEverySession() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let phone = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": alice.password])
            let phoneRefresh = try phone.decode(WireTokenPair.self).refreshToken
            #expect(try await stack.gateway.post(IdentityPaths.logoutAll, token: alice.accessToken).status == 204)
            #expect(try await refresh(stack, alice.refreshToken).status == 401)
            #expect(try await refresh(stack, phoneRefresh).status == 401)
        }
    }

    @Test func sessionsAreListedAndRevocableByTheirOwnerOnly() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            let list = try await stack.gateway.get(IdentityPaths.sessions, token: alice.accessToken)
            let items = try list.decode(WireItems<WireSession>.self).items
            #expect(items.count == 1)
            #expect(items.first?.current == true)
            #expect(items.first?.id == alice.sessionID)
            // bob cannot end alice's session
            let attempt = try await stack.gateway.delete(
                IdentityPaths.sessions + "/" + alice.sessionID, token: bob.accessToken)
            #expect(attempt.status == 404)
            #expect(try await refresh(stack, alice.refreshToken).status == 200)
            // alice can
            #expect(
                try await stack.gateway.delete(IdentityPaths.sessions + "/" + alice.sessionID, token: alice.accessToken)
                    .status == 204)
        }
    }
}
