import Foundation
import GRDB

// The nonces issued for OpenID sign-in and linking (OIDCNonce): hashed, deleted when used or expired.
extension SQLiteIdentityStore {
    /// Stores an issued nonce's hash, and deletes the expired ones so the table holds only live nonces.
    func storeNonce(_ nonce: OIDCNonce, now: Date) async throws {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM oidc_nonces WHERE expires_at <= ?").execute(arguments: [now])
            try db.cachedStatement(sql: "INSERT INTO oidc_nonces (nonce_hash, expires_at) VALUES (?, ?)")
                .execute(arguments: [nonce.hash, nonce.expiresAt])
        }
    }

    /// Uses up the nonce with this hash: `true` if it was issued, unused and unexpired at `now`. One statement, so two
    /// requests racing with the same nonce cannot both use it.
    func consumeNonce(hash: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM oidc_nonces WHERE nonce_hash = ? AND expires_at > ?")
                .execute(arguments: [hash, now])
            return db.changesCount > 0
        }
    }

    /// Deletes the nonces expired by `now`; returns how many.
    func pruneNonces(now: Date) async throws -> Int {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM oidc_nonces WHERE expires_at <= ?").execute(arguments: [now])
            return db.changesCount
        }
    }
}
