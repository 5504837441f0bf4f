import Crypto
import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// Roles are granted by the operator's command only (issue 41): `Identity roles grant|revoke|list`, run where
/// identity's database lives.
@Suite struct RoleCommandTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func readsTheCommandLine() throws {
        #expect(try RoleCommand(arguments: []) == nil, "no arguments: the service starts")
        #expect(try RoleCommand(arguments: ["--verbose"]) == nil)
        #expect(
            try RoleCommand(arguments: ["roles", "grant", "alice", "admin"]) == .grant(role: "admin", user: "alice"))
        #expect(
            try RoleCommand(arguments: ["roles", "revoke", "a@b.co", "admin"]) == .revoke(role: "admin", user: "a@b.co")
        )
        #expect(try RoleCommand(arguments: ["roles", "list"]) == .list(user: nil))
        #expect(try RoleCommand(arguments: ["roles", "list", "alice"]) == .list(user: "alice"))
    }

    @Test(arguments: [
        ["roles"], ["roles", "grant", "alice"], ["roles", "grant", "alice", "Admin"],
        ["roles", "grant", "alice", "a b"],
        ["roles", "revoke", "alice", ""], ["roles", "give", "alice", "admin"], ["roles", "list", "a", "b"],
        ["roles", "grant", "alice", String(repeating: "r", count: 33)],
    ])
    func refusesWhatItCannotRead(arguments: [String]) {
        #expect(throws: RoleCommandError.self) { try RoleCommand(arguments: arguments) }
    }

    /// A store of `kind` with alice (signed in twice) and bob, for the length of `body`.
    func withDatabase(_ kind: StoreKind, _ body: (any IdentityStore) async throws -> Void) async throws {
        let now = now
        try await withIdentityStore(kind) { database in
            try await Self.seed(database, now: now)
            try await body(database)
        }
    }

    static func seed(_ database: any IdentityStore, now: Date) async throws {
        for (id, name) in [("u1", "alice"), ("u2", "bob")] {
            try await database.createUser(
                UserRecord(
                    id: id, email: "\(name)@example.com", emailVerified: false, username: name, passwordHash: "x",
                    displayName: "", bio: "", homeCity: "", roles: "", avatarEtag: nil, createdAt: now,
                    updatedAt: now))
        }
        for session in ["s1", "s2"] {
            try await database.createSession(
                SessionRecord(id: session, userId: "u1", userAgent: nil, createdAt: now, lastUsedAt: now),
                refreshTokenHash: "h-\(session)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func grantsByUsernameEmailOrIdOnce(kind: StoreKind) async throws {
        try await withDatabase(kind) { database in
            #expect(
                try await database.grant(role: "admin", to: "ALICE", now: now).line
                    == "granted admin to alice (u1); it reaches the user's next access token (a refresh, within 15 minutes)"
            )
            #expect(
                try await database.grant(role: "admin", to: "alice@example.com", now: now).line
                    == "alice (u1) already holds admin; nothing changed")
            _ = try await database.grant(role: "editor", to: "u1", now: now)
            #expect(try await database.user(id: "u1")?.roleList == ["admin", "editor"])
            #expect(try await database.roleHolders(named: nil).line == "alice (u1): admin, editor")
            #expect(try await database.roleHolders(named: "bob").line == "bob (u2) holds no role")
            await #expect(throws: RoleCommandError.noSuchUser("carol")) {
                try await database.grant(role: "admin", to: "carol", now: now)
            }
            for role in ["ra", "rb", "rc", "rd", "re", "rf"] {
                _ = try await database.grant(role: role, to: "u1", now: now)
            }
            await #expect(throws: RoleCommandError.tooManyRoles("alice (u1)")) {
                try await database.grant(role: "one_too_many", to: "u1", now: now)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func revokingEndsTheUsersSessions(kind: StoreKind) async throws {
        try await withDatabase(kind) { database in
            // given alice holds admin and is signed in on two devices
            _ = try await database.grant(role: "admin", to: "alice", now: now)
            // when
            let revoked = try await database.revoke(role: "admin", from: "alice", now: now)
            // then no access token of hers carries the role for long: her sessions ended, published on the feed
            #expect(revoked.outcome.line == "revoked admin from alice (u1); 2 sessions ended, so no token carries it")
            #expect(Set(revoked.endedSessions) == ["s1", "s2"] && revoked.userID == "u1")
            #expect(try await database.user(id: "u1")?.roleList == [])
            #expect(try await database.activeSessions(userID: "u1", lifetime: .standard, now: now).isEmpty)
            let page = try await database.revocations(after: 0, now: now, limit: 10)
            #expect(Set(page.items.map(\.sessionId)) == ["s1", "s2"])
            // and revoking what is not held changes nothing
            let again = try await database.revoke(role: "admin", from: "alice", now: now)
            #expect(again.outcome.line == "alice (u1) does not hold admin; nothing changed")
            #expect(again.endedSessions.isEmpty)
            #expect(try await database.roleHolders(named: nil).line == "no user holds a role")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func runsOnTheDatabaseTheConfigurationNames(kind: StoreKind) async throws {
        // given identity's database (its SQLite file, or DATABASE_URL's PostgreSQL), as the running service leaves it
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-roles-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location: DatabaseLocation =
            kind == .sqlite
            ? .file(folder.appendingPathComponent("identity.sqlite").path) : try await kind.freshLocation()
        let configuration = IdentityConfiguration(
            settings: ServiceSettings(
                service: .identity, dataDirectory: folder.path, database: location, internalToken: "t",
                clock: ManualClock(now).wallClock),
            signingKey: Curve25519.Signing.PrivateKey())
        let now = now
        try await withIdentityStore(at: location) { database in
            try await Self.seed(database, now: now)
        }
        // when the operator runs the command
        let line = try await RoleCommand.grant(role: "admin", user: "alice@example.com").run(configuration)
        // then
        #expect(line.hasPrefix("granted admin to alice (u1)"))
        #expect(try await RoleCommand.list(user: nil).run(configuration) == "alice (u1): admin")
        let revoked = try await RoleCommand.revoke(role: "admin", user: "alice").run(configuration)
        #expect(revoked == "revoked admin from alice (u1); 2 sessions ended, so no token carries it")
    }
}
