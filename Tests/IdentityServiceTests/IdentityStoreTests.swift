import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// The store's invariants, on both engines: what SQLite keeps by writing one transaction at a time must hold on
/// PostgreSQL with several writers.
@Suite struct IdentityStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: StoreKind.allCases)
    func rotationReplacesTheTokenAndReuseRevokesTheSession(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store in
            guard
                case .rotated = try await store.rotate(
                    refreshTokenHash: "h1", chain: ["h2"], lifetime: .standard, now: now)
            else {
                Issue.record("expected rotation")
                return
            }
            guard
                case .reused = try await store.rotate(
                    refreshTokenHash: "h1", chain: ["h2"], lifetime: .standard, now: now.addingTimeInterval(60))
            else {
                Issue.record("expected reuse detection")
                return
            }
            guard
                case .invalid = try await store.rotate(
                    refreshTokenHash: "h2", chain: ["h3"], lifetime: .standard, now: now.addingTimeInterval(61))
            else {
                Issue.record("the session should be revoked")
                return
            }
            #expect(try await store.activeSessions(userID: "u1", lifetime: .standard, now: now).isEmpty)
            // the reuse published the session's end for the revocation feed
            let page = try await store.revocations(after: 0, now: now.addingTimeInterval(61), limit: 10)
            #expect(page.items.map(\.sessionId) == ["s1"])
            #expect(page.last == page.items.last?.sequence)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReuseWithinTheGraceWindowJoinsTheChainsHeadAndLeavesOneLiveToken(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store in
            guard
                case .rotated(_, _, let first) = try await store.rotate(
                    refreshTokenHash: "h1", chain: ["h2", "h3"], lifetime: .standard, now: now),
                case .rotated(_, _, let second) = try await store.rotate(
                    refreshTokenHash: "h2", chain: ["h3", "h4"], lifetime: .standard, now: now.addingTimeInterval(1)),
                case .rotated(_, _, let racer) = try await store.rotate(
                    refreshTokenHash: "h1", chain: ["h2", "h3"], lifetime: .standard, now: now.addingTimeInterval(2))
            else {
                Issue.record("expected three rotations")
                return
            }
            #expect([first, second, racer] == [Int](arrayLiteral: 0, 0, 1))
            #expect(try await store.liveRefreshTokenHashes(sessionID: "s1") == ["h3"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func endedSessionsAreListedAfterASequenceAndWhileTheirTokensLive(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store in
            #expect(
                try await store.revokeSessions(userID: "u1", keeping: nil, reason: "logout_all", now: now) == ["s1"])
            let all = try await store.revocations(after: nil, now: now, limit: 0)
            #expect(all.items.map(\.sessionId) == ["s1"])
            #expect(all.items.first?.until == now.addingTimeInterval(15 * 60))
            #expect(try await store.revocations(after: all.last, now: now, limit: 10).items.isEmpty)
            // once the session's last access token has expired, a starting reader need not learn it
            #expect(
                try await store.revocations(after: nil, now: now.addingTimeInterval(15 * 60 + 1), limit: 0).items
                    .isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func usernamesAndAddressesAreUniqueIgnoringTheCaseOfASCIILettersOnly(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store in
            await #expect(throws: IdentityError.usernameTaken("ALICE")) {
                try await store.createUser(testUser("u2", username: "ALICE", email: "c@d.co", now: now))
            }
            await #expect(throws: IdentityError.emailTaken) {
                try await store.createUser(testUser("u2", username: "carol", email: "A@B.CO", now: now))
            }
            #expect(try await store.user(identifier: "Alice")?.id == "u1")
            #expect(try await store.user(identifier: "A@b.Co")?.id == "u1")
            // as SQLite's NOCASE: letters beyond ASCII keep their case, so these are two names
            try await store.createUser(testUser("u3", username: "élodie", email: "e@d.co", now: now))
            try await store.createUser(testUser("u4", username: "Élodie", email: "f@d.co", now: now))
            #expect(try await store.user(identifier: "ÉLODIE")?.id == "u4")
            #expect(try await store.user(identifier: "éLODIE")?.id == "u3")
            let renamed = try await store.updateUser(id: "u3", now: now) { $0.username = "Élodie2" }
            #expect(renamed.username == "Élodie2")
            await #expect(throws: IdentityError.usernameTaken("aLiCe")) {
                try await store.updateUser(id: "u3", now: now) { $0.username = "aLiCe" }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func registrationsRacingForOneNameLeaveOneAccountAndNameTheConflict(kind: StoreKind) async throws {
        try await withIdentityStore(kind) { store in
            let now = now
            // when eight registrations of one name in different cases run at once
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            try await store.createUser(
                                testUser(
                                    "u\(index)", username: index.isMultiple(of: 2) ? "bob" : "BOB",
                                    email: "bob\(index)@example.com", now: now))
                            return "created"
                        } catch IdentityError.usernameTaken {
                            return "taken"
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            // then one account has it, and every other registration learned the name was taken
            #expect(outcomes.sorted() == ["created"] + Array(repeating: "taken", count: 7))
            #expect(try await store.user(identifier: "Bob") != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aResetTokenWorksOnceAndOnlyBeforeItExpires(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store in
            try await store.createResetToken(
                PasswordResetTokenRecord(
                    tokenHash: "r1", userId: "u1", createdAt: now, expiresAt: now.addingTimeInterval(1800)),
                mail: MailMessage(recipient: "a@b.co", subject: "s", body: "b"))
            #expect(try await store.userForResetToken(tokenHash: "r1", now: now.addingTimeInterval(1800)) == nil)
            let revoked = try await store.resetPassword(
                tokenHash: "r1", userID: "u1", passwordHash: "new", notice: nil, now: now)
            #expect(revoked?.count == 1, "the revoked sessions, to forget their devices")
            #expect(
                try await store.resetPassword(
                    tokenHash: "r1", userID: "u1", passwordHash: "again", notice: nil, now: now)
                    == nil)
            #expect(try await store.user(id: "u1")?.passwordHash == "new")
            #expect(try await store.activeSessions(userID: "u1", lifetime: .standard, now: now).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aClientsValueHoldingNULIsReadUpToItAsSQLiteBindsIt(kind: StoreKind) async throws {
        try await withAliceSignedIn(kind, now: now) { store async throws in
            // SQLite binds a string up to its first NUL; PostgreSQL's text cannot hold one and would refuse the
            // statement (a 500): both answer as for the value up to the NUL
            #expect(try await store.user(identifier: "alice\u{0}x")?.id == "u1")
            #expect(try await store.user(identifier: "a@b.co\u{0}x")?.id == "u1")
            #expect(try await store.users(ids: ["u1\u{0}x"]).map(\.id) == ["u1"])
            #expect(
                try await store.directory(matching: "al\u{0}x", viewer: "u2", after: nil, limit: 10).map(\.user.id)
                    == ["u1"])
            #expect(try await store.directory(viewer: "u2", after: "a\u{0}b", limit: 10).map(\.id) == ["u1"])
            #expect(try await store.resetTokenHash(email: "a@b.co\u{0}", code: "123456", now: now) == nil)
            #expect(try await store.emailBelongsToAnotherAccount("a@b.co\u{0}x", userID: "u2"))
        }
    }
}
