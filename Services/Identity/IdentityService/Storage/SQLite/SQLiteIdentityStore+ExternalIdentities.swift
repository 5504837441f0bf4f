import Foundation
import GRDB
import PlatformKit

// OpenID Connect accounts linked to users.
extension SQLiteIdentityStore {
    /// The account an issuer vouched for: the one linked to its subject, else the one with its e-mail (linked
    /// now, when ``ExternalIdentity/mayLink(toAccountWithVerifiedEmail:)`` allows), else a new one, which then
    /// chooses a username.
    func account(for identity: ExternalIdentity, now: Date) async throws -> UserRecord {
        try await write { db in
            if let linked = try UserRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT users.* FROM users JOIN external_identities ON external_identities.user_id = users.id
                        WHERE issuer = ? AND subject = ?
                        """), arguments: [identity.issuer, identity.subject])
            {
                return linked
            }
            let link = { (userID: String) in
                ExternalIdentityRecord(
                    issuer: identity.issuer, subject: identity.subject, userId: userID, createdAt: now)
            }
            // An address the issuer does not vouch for (Facebook's; Google's with `email_verified` false) is never
            // stored nor matched: the account keeps the name and the provider identity, and adds an address later
            // through a verification link (issue 18).
            let vouchedEmail = identity.emailVerified ? identity.email : nil
            if let email = vouchedEmail,
                let existing = try UserRecord.filter(UserRecord.Columns.email == email).fetchOne(db)
            {
                guard identity.mayLink(toAccountWithVerifiedEmail: existing.emailVerified) else {
                    throw IdentityError.accountExists
                }
                try link(existing.id).insert(db, onConflict: .ignore)
                return existing
            }
            let user = UserRecord(
                id: UUID().uuidString.lowercased(), email: vouchedEmail, emailVerified: vouchedEmail != nil,
                username: nil, passwordHash: nil, displayName: String((identity.name ?? "").prefix(50)), bio: "",
                homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now)
            try user.insert(db)
            try link(user.id).insert(db, onConflict: .ignore)
            return user
        }
    }

    /// Every external identity linked to the user.
    func externalIdentities(userID: String) async throws -> [ExternalIdentityRecord] {
        try await read { db in
            try ExternalIdentityRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM external_identities WHERE user_id = ? ORDER BY created_at"),
                arguments: [userID])
        }
    }

    /// Links an issuer's account to a signed-in user, unless another account holds it.
    func linkIdentity(_ identity: ExternalIdentityRecord) async throws -> LinkOutcome {
        try await write { db in
            if let owner = try String.fetchOne(
                db.cachedStatement(sql: "SELECT user_id FROM external_identities WHERE issuer = ? AND subject = ?"),
                arguments: [identity.issuer, identity.subject])
            {
                return owner == identity.userId ? .alreadyLinked : .linkedToAnotherAccount
            }
            try identity.insert(db)
            return .linked
        }
    }

    /// Removes the user's identities at `issuers`, unless that would leave no way to sign in.
    func unlinkIdentities(userID: String, issuers: [String]) async throws -> UnlinkOutcome {
        try await write { db in
            let linked = try ExternalIdentityRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM external_identities WHERE user_id = ?"), arguments: [userID])
            let removed = linked.filter { issuers.contains($0.issuer) }
            guard !removed.isEmpty else { return .notLinked }
            let hasPassword =
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT password_hash IS NOT NULL FROM users WHERE id = ?"),
                    arguments: [userID]) ?? false
            guard hasPassword || linked.count > removed.count else { return .lastSignInMethod }
            for identity in removed { try identity.delete(db) }
            return .unlinked
        }
    }
}
