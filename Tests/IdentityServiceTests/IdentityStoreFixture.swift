import Foundation
import Logging
import ServiceKit
import TestSupport

@testable import IdentityService

/// Runs `body` with a fresh identity store of `kind` (a SQLite file, or a new database on the test process's
/// PostgreSQL), its services (the PostgreSQL pool) running meanwhile.
func withIdentityStore<T: Sendable>(_ kind: StoreKind, _ body: (any IdentityStore) async throws -> T) async throws
    -> T
{
    try await withIdentityStore(at: try await kind.freshLocation(), body)
}

/// Runs `body` with the identity store at `location`, its services running meanwhile.
func withIdentityStore<T: Sendable>(at location: DatabaseLocation, _ body: (any IdentityStore) async throws -> T)
    async throws -> T
{
    let store = try await openIdentityStore(location, logger: Logger(label: "test.identity"))
    return try await withRunning(store) { try await body(store) }
}

/// A user row with the given names and nothing else set.
func testUser(_ id: String, username: String?, email: String?, displayName: String = "", now: Date) -> UserRecord {
    UserRecord(
        id: id, email: email, emailVerified: false, username: username, passwordHash: "x", displayName: displayName,
        bio: "", homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now)
}

/// Runs `body` with a fresh store of `kind` holding alice (`u1`, `a@b.co`) signed in once (`s1`, refresh token
/// hash `h1`).
func withAliceSignedIn<T: Sendable>(_ kind: StoreKind, now: Date, _ body: (any IdentityStore) async throws -> T)
    async throws -> T
{
    try await withIdentityStore(kind) { store in
        try await store.createUser(testUser("u1", username: "alice", email: "a@b.co", now: now))
        try await store.createSession(
            SessionRecord(id: "s1", userId: "u1", userAgent: nil, createdAt: now, lastUsedAt: now),
            refreshTokenHash: "h1")
        return try await body(store)
    }
}
