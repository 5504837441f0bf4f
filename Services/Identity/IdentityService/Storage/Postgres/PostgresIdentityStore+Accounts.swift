import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

// OpenID Connect accounts linked to users, and roles (changed only by the operator's command).
extension PostgresIdentityStore {
    func account(for identity: ExternalIdentity, now: Date) async throws -> UserRecord {
        try await write { sql in
            if let linked = try await sql.first(
                """
                SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = (
                    SELECT user_id FROM external_identities
                    WHERE issuer = \(identity.issuer) AND subject = \(identity.subject))
                """, UserRecord.init(postgres:))
            {
                return linked
            }
            func link(_ userID: String) async throws {
                try await sql.execute(
                    """
                    INSERT INTO external_identities (issuer, subject, user_id, created_at)
                    VALUES (\(identity.issuer), \(identity.subject), \(userID), \(now)) ON CONFLICT DO NOTHING
                    """)
            }
            // An address the issuer does not vouch for is never stored nor matched (issue 18).
            let vouchedEmail = identity.emailVerified ? identity.email : nil
            if let email = vouchedEmail, let existing = try await Self.user(sql, email: email, username: "") {
                guard identity.mayLink(toAccountWithVerifiedEmail: existing.emailVerified) else {
                    throw IdentityError.accountExists
                }
                try await link(existing.id)
                return existing
            }
            let user = UserRecord(
                id: UUID().uuidString.lowercased(), email: vouchedEmail, emailVerified: vouchedEmail != nil,
                username: nil, passwordHash: nil, displayName: String((identity.name ?? "").prefix(50)), bio: "",
                homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now)
            try await Self.insert(sql, user)
            try await link(user.id)
            return user
        }
    }

    func externalIdentities(userID: String) async throws -> [ExternalIdentityRecord] {
        try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: ExternalIdentityRecord.postgresColumns) FROM external_identities
                WHERE user_id = \(userID) ORDER BY created_at, issuer COLLATE "C", subject COLLATE "C"
                """
            ).map(ExternalIdentityRecord.init(postgres:))
        }
    }

    func linkIdentity(_ identity: ExternalIdentityRecord) async throws -> LinkOutcome {
        try await write { sql in
            if let owner = try await sql.first(
                """
                SELECT user_id FROM external_identities
                WHERE issuer = \(identity.issuer) AND subject = \(identity.subject)
                """, { try $0.decode(String.self) })
            {
                return owner == identity.userId ? .alreadyLinked : .linkedToAnotherAccount
            }
            try await sql.execute(
                """
                INSERT INTO external_identities (issuer, subject, user_id, created_at)
                VALUES (\(identity.issuer), \(identity.subject), \(identity.userId), \(identity.createdAt))
                """)
            return .linked
        }
    }

    func unlinkIdentities(userID: String, issuers: [String]) async throws -> UnlinkOutcome {
        try await write { sql in
            let linked = try await sql.rows("SELECT issuer FROM external_identities WHERE user_id = \(userID)")
                .map { try $0.decode(String.self) }
            let removed = linked.filter { issuers.contains($0) }
            guard !removed.isEmpty else { return .notLinked }
            let hasPassword =
                try await sql.first("SELECT password_hash IS NOT NULL FROM users WHERE id = \(userID)") {
                    try $0.decode(Bool.self)
                } ?? false
            guard hasPassword || linked.count > removed.count else { return .lastSignInMethod }
            try await sql.execute(
                "DELETE FROM external_identities WHERE user_id = \(userID) AND issuer = ANY(\(removed))")
            return .unlinked
        }
    }

    // MARK: Roles

    func grant(role: String, to name: String, now: Date) async throws -> RoleCommandOutcome {
        try await write { sql in
            var user = try await Self.user(sql, named: name)
            guard try user.grant(role, now: now) else {
                return .granted(role: role, user: user.operatorName, alreadyHeld: true)
            }
            try await Self.update(sql, user)
            return .granted(role: role, user: user.operatorName, alreadyHeld: false)
        }
    }

    func revoke(role: String, from name: String, now: Date) async throws -> RoleRevocation {
        try await write { sql in
            var user = try await Self.user(sql, named: name)
            guard user.revoke(role, now: now) else { return .notHeld(role, by: user) }
            try await Self.update(sql, user)
            let ended = try await Self.revokeSessions(
                sql, userID: user.id, keeping: nil, reason: "role_revoked", now: now)
            return RoleRevocation(
                outcome: .revoked(role: role, user: user.operatorName, endedSessions: ended.count, wasHeld: true),
                userID: user.id, endedSessions: ended)
        }
    }

    func roleHolders(named name: String?) async throws -> RoleCommandOutcome {
        try await read { sql in
            let users: [UserRecord]
            if let name {
                users = [try await Self.user(sql, named: name)]
            } else {
                // SQLite's order: NOCASE names, NULLs first.
                users = try await sql.rows(
                    """
                    SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE roles <> ''
                    ORDER BY lower(username COLLATE "C") NULLS FIRST, lower(email COLLATE "C") NULLS FIRST,
                        id COLLATE "C"
                    """
                ).map(UserRecord.init(postgres:))
            }
            return .listed(users.map { .init(user: $0.operatorName, roles: $0.roleList) })
        }
    }

    /// The user with this username, e-mail address or id.
    private static func user(_ sql: PostgresSession, named name: String) async throws -> UserRecord {
        let key = name.trimmingCharacters(in: .whitespaces)
        if let user = try await user(sql, email: key.contains("@") ? key : nil, username: key) {
            return user
        }
        guard
            let user = try await sql.first(
                "SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = \(key)",
                UserRecord.init(postgres:))
        else { throw RoleCommandError.noSuchUser(name) }
        return user
    }
}
