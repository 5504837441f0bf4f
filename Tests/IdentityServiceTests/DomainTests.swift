import Crypto
import Foundation
import PlatformKit
import Testing

@testable import IdentityService

@Suite struct PasswordPolicyTests {
    static let seventyTwoBytes = String(
        "the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ".prefix(72))

    @Test(arguments: ["ten chars!", "correct horse battery staple", Self.seventyTwoBytes])
    func acceptsLongUncommonPasswords(password: String) throws {
        try PasswordPolicy.check(password, username: "alice", email: "alice@example.com")
    }

    @Test(arguments: [
        "nine char", "1234567890", "Password123", "aaaaaaaaaaaa", "ababababab12", "my alice password",
        "alice@example.com!",
        Self.seventyTwoBytes + "x",
    ])
    func refusesWeakPasswords(password: String) {
        #expect(throws: IdentityError.self) {
            try PasswordPolicy.check(password, username: "alice", email: "alice@example.com")
        }
    }
}

@Suite struct RefreshPolicyTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func anUnrotatedTokenRotates() {
        #expect(RefreshPolicy.decide(rotatedAt: nil, now: now) == .rotate)
    }

    @Test func aRotatedTokenIsAcceptedForTenSeconds() {
        #expect(RefreshPolicy.decide(rotatedAt: now.addingTimeInterval(-10), now: now) == .rotate)
        #expect(RefreshPolicy.decide(rotatedAt: now.addingTimeInterval(-10.001), now: now) == .reject)
    }
}

@Suite struct IdentityDatabaseTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func databaseWithSession() async throws -> IdentityDatabase {
        let database = try IdentityDatabase(.inMemory)
        try await database.createUser(
            UserRecord(
                id: "u1", email: "a@b.co", emailVerified: false, username: "alice", passwordHash: "x", displayName: "",
                bio: "", homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now))
        try await database.createSession(
            SessionRecord(id: "s1", userId: "u1", userAgent: nil, createdAt: now, lastUsedAt: now),
            refreshTokenHash: "h1")
        return database
    }

    @Test func rotationReplacesTheTokenAndReuseRevokesTheSession() async throws {
        let database = try await databaseWithSession()
        guard
            case .rotated = try await database.rotate(
                refreshTokenHash: "h1", chain: ["h2"], lifetime: .standard, now: now)
        else {
            Issue.record("expected rotation")
            return
        }
        guard
            case .reused = try await database.rotate(
                refreshTokenHash: "h1", chain: ["h2"], lifetime: .standard, now: now.addingTimeInterval(60))
        else {
            Issue.record("expected reuse detection")
            return
        }
        guard
            case .invalid = try await database.rotate(
                refreshTokenHash: "h2", chain: ["h3"], lifetime: .standard, now: now.addingTimeInterval(61))
        else {
            Issue.record("the session should be revoked")
            return
        }
        #expect(try await database.activeSessions(userID: "u1", lifetime: .standard, now: now).isEmpty)
        // the reuse published the session's end for the revocation feed
        let page = try await database.revocations(after: 0, now: now.addingTimeInterval(61), limit: 10)
        #expect(page.items.map(\.sessionId) == ["s1"])
        #expect(page.last == page.items.last?.sequence)
    }

    @Test func aReuseWithinTheGraceWindowJoinsTheChainsHeadAndLeavesOneLiveToken() async throws {
        let database = try await databaseWithSession()
        guard
            case .rotated(_, _, let first) = try await database.rotate(
                refreshTokenHash: "h1", chain: ["h2", "h3"], lifetime: .standard, now: now),
            case .rotated(_, _, let second) = try await database.rotate(
                refreshTokenHash: "h2", chain: ["h3", "h4"], lifetime: .standard, now: now.addingTimeInterval(1)),
            case .rotated(_, _, let racer) = try await database.rotate(
                refreshTokenHash: "h1", chain: ["h2", "h3"], lifetime: .standard, now: now.addingTimeInterval(2))
        else {
            Issue.record("expected three rotations")
            return
        }
        #expect([first, second, racer] == [Int](arrayLiteral: 0, 0, 1))
        #expect(try await database.liveRefreshTokenHashes(sessionID: "s1") == ["h3"])
    }

    @Test func endedSessionsAreListedAfterASequenceAndWhileTheirTokensLive() async throws {
        let database = try await databaseWithSession()
        #expect(try await database.revokeSessions(userID: "u1", keeping: nil, reason: "logout_all", now: now) == ["s1"])
        let all = try await database.revocations(after: nil, now: now, limit: 0)
        #expect(all.items.map(\.sessionId) == ["s1"])
        #expect(all.items.first?.until == now.addingTimeInterval(15 * 60))
        #expect(try await database.revocations(after: all.last, now: now, limit: 10).items.isEmpty)
        // once the session's last access token has expired, a starting reader need not learn it
        #expect(
            try await database.revocations(after: nil, now: now.addingTimeInterval(15 * 60 + 1), limit: 0).items.isEmpty
        )
    }

    @Test func duplicateUsernamesAreConflictsWhateverTheCase() async throws {
        let database = try await databaseWithSession()
        await #expect(throws: IdentityError.usernameTaken("ALICE")) {
            try await database.createUser(
                UserRecord(
                    id: "u2", email: "c@d.co", emailVerified: false, username: "ALICE", passwordHash: "x",
                    displayName: "",
                    bio: "", homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now))
        }
    }

    @Test func aResetTokenWorksOnceAndOnlyBeforeItExpires() async throws {
        let database = try await databaseWithSession()
        try await database.createResetToken(
            PasswordResetTokenRecord(
                tokenHash: "r1", userId: "u1", createdAt: now, expiresAt: now.addingTimeInterval(1800)),
            mail: MailMessage(recipient: "a@b.co", subject: "s", body: "b"))
        #expect(try await database.userForResetToken(tokenHash: "r1", now: now.addingTimeInterval(1800)) == nil)
        let revoked = try await database.resetPassword(
            tokenHash: "r1", userID: "u1", passwordHash: "new", notice: nil, now: now)
        #expect(revoked?.count == 1, "the revoked sessions, to forget their devices")
        #expect(
            try await database.resetPassword(
                tokenHash: "r1", userID: "u1", passwordHash: "again", notice: nil, now: now)
                == nil)
        #expect(try await database.user(id: "u1")?.passwordHash == "new")
        #expect(try await database.activeSessions(userID: "u1", lifetime: .standard, now: now).isEmpty)
    }
}

@Suite struct PasswordNULTests {
    /// bcrypt would hash only "a" (issue 16, item 7).
    @Test func aNULByteIsRefusedNamingTheField() {
        #expect(throws: IdentityError.self) {
            try PasswordPolicy.check("a\u{0}bcdefghijk", username: nil, email: nil)
        }
        do {
            try PasswordPolicy.check("correct horse\u{0} battery", username: nil, email: nil, field: "newPassword")
            Issue.record("accepted a NUL byte")
        } catch let error as IdentityError {
            #expect(error.problem.statusCode == 400)
            #expect(error.problem.code == "invalid_new_password")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct RefreshTokenChainTests {
    @Test func successorsAreDeterministicPerKeyAndUnguessableWithoutIt() {
        let key = Curve25519.Signing.PrivateKey()
        let chain = RefreshTokenChain(signingKey: key)
        #expect(chain.successors(of: "t0") == RefreshTokenChain(signingKey: key).successors(of: "t0"))
        #expect(chain.successors(of: "t0").first == chain.successor(of: "t0"))
        #expect(chain.successors(of: "t0")[1] == chain.successor(of: chain.successor(of: "t0")))
        #expect(Set(chain.successors(of: "t0")).count == RefreshTokenChain.depth)
        #expect(
            RefreshTokenChain(signingKey: Curve25519.Signing.PrivateKey()).successor(of: "t0")
                != chain.successor(of: "t0"))
    }
}
