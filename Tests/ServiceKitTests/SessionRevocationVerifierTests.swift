import Crypto
import Foundation
import JWTKit
import PlatformKit
import Synchronization
import TestSupport
import Testing

/// Ended sessions in the shared verifier: refused on the cached path and the verify path, forgotten once their
/// tokens have expired.
@Suite struct SessionRevocationVerifierTests {
    let clock = ManualClock()
    static let ended = Problem.unauthorized("session_ended", "This session has ended; sign in again.")

    func keysAndToken(session: String = "s1") async throws -> (JWTKeyCollection, String) {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: Curve25519.Signing.PrivateKey()), kid: "k1")
        let claims = AccessTokenClaims(
            userID: "u1", sessionID: session, roles: [], issuedAt: clock.now, lifetime: 900)
        return (keys, try await keys.sign(claims, kid: "k1"))
    }

    /// Issue 41: what a token opened (a live stream) hears of its session's end as the verifier learns it, once.
    @Test func observersHearOfEachSessionOnceAsItEnds() {
        let verifier = AccessTokenVerifier(clock: clock.wallClock) { _ in throw Self.ended }
        let heard = Mutex<[[String]]>([])
        verifier.onSessionsEnded { ids in heard.withLock { $0.append(ids) } }
        let until = clock.now.addingTimeInterval(900)
        // when
        verifier.endSessions(["s1", "s2"], until: until)
        verifier.endSessions([
            SessionRevocation(sequence: 3, sessionId: "s2", until: until),
            SessionRevocation(sequence: 4, sessionId: "s3", until: until),
            SessionRevocation(sequence: 5, sessionId: "old", until: clock.now.addingTimeInterval(-1)),
        ])
        verifier.endSessions(["s1"], until: until)
        // then
        #expect(heard.withLock { $0 } == [["s1", "s2"], ["s3"]])
    }

    @Test func aCachedTokenOfAnEndedSessionIsRefusedWithoutASignatureCheck() async throws {
        let (keys, token) = try await keysAndToken()
        let calls = Mutex(0)
        let verifier = AccessTokenVerifier(clock: clock.wallClock) { token in
            calls.withLock { $0 += 1 }
            return try await keys.verify(token, as: AccessTokenClaims.self)
        }
        _ = try await verifier.verify(token: token)
        #expect(verifier.cachedUser(token: token) != nil)
        // when
        verifier.endSessions(["s1"], until: clock.now.addingTimeInterval(900))
        // then
        #expect(verifier.cachedUser(token: token) == nil)
        #expect(verifier.sessionEnded("s1"))
        await #expect(throws: Self.ended) { try await verifier.verify(token: token) }
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aTokenNeverSeenOfAnEndedSessionIsRefusedAfterItsSignatureCheck() async throws {
        let (keys, token) = try await keysAndToken()
        let verifier = AccessTokenVerifier.local(keys: keys, clock: clock.wallClock)
        verifier.endSessions([SessionRevocation(sequence: 7, sessionId: "s1", until: clock.now.addingTimeInterval(900))]
        )
        await #expect(throws: Self.ended) { try await verifier.verify(token: token) }
        #expect(verifier.cachedUser(token: token) == nil)
        // other sessions are not affected
        let (otherKeys, other) = try await keysAndToken(session: "s2")
        let second = AccessTokenVerifier.local(keys: otherKeys, clock: clock.wallClock)
        second.endSessions(["s1"], until: clock.now.addingTimeInterval(900))
        #expect(try await second.verify(token: other).sessionID == "s2")
    }

    @Test func entriesAlreadyPastTheirTokensLifetimeAreNotKept() async throws {
        let verifier = AccessTokenVerifier.local(keys: JWTKeyCollection(), clock: clock.wallClock)
        verifier.endSessions(["old"], until: clock.now.addingTimeInterval(-1))
        #expect(!verifier.sessionEnded("old"))
        verifier.endSessions(["new"], until: clock.now.addingTimeInterval(60))
        #expect(verifier.sessionEnded("new"))
    }
}
