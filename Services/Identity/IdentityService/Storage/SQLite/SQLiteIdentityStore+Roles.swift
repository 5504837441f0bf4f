import Foundation
import GRDB

// Roles, changed only by the operator's command (RoleCommand), never by a route.
extension SQLiteIdentityStore {
    /// Adds `role` to the user named `name` (a username, e-mail address or id).
    func grant(role: String, to name: String, now: Date) async throws -> RoleCommandOutcome {
        try await write { db in
            var user = try Self.user(db, named: name)
            guard try user.grant(role, now: now) else {
                return .granted(role: role, user: user.operatorName, alreadyHeld: true)
            }
            try user.update(db)
            return .granted(role: role, user: user.operatorName, alreadyHeld: false)
        }
    }

    /// Removes `role` from the user named `name` and, in the same transaction, ends every session of theirs (published
    /// on the revocation feed), since an access token already issued carries the role until it expires.
    func revoke(role: String, from name: String, now: Date) async throws -> RoleRevocation {
        try await write { db in
            var user = try Self.user(db, named: name)
            guard user.revoke(role, now: now) else { return .notHeld(role, by: user) }
            try user.update(db)
            let ended = try Self.revokeSessions(db, userID: user.id, keeping: nil, reason: "role_revoked", now: now)
            return RoleRevocation(
                outcome: .revoked(role: role, user: user.operatorName, endedSessions: ended.count, wasHeld: true),
                userID: user.id, endedSessions: ended)
        }
    }

    /// The roles of the user named `name`, or, with `name` nil, every user who holds a role.
    func roleHolders(named name: String?) async throws -> RoleCommandOutcome {
        try await read { db in
            let users =
                try name.map { [try Self.user(db, named: $0)] }
                ?? UserRecord.filter(sql: "roles != ''").order(sql: "username, email, id").fetchAll(db)
            return .listed(users.map { .init(user: $0.operatorName, roles: $0.roleList) })
        }
    }

    /// The user with this username, e-mail address or id.
    private static func user(_ db: Database, named name: String) throws -> UserRecord {
        let key = name.trimmingCharacters(in: .whitespaces)
        let column = key.contains("@") ? UserRecord.Columns.email : UserRecord.Columns.username
        guard
            let user = try UserRecord.filter(column == key).fetchOne(db) ?? UserRecord.fetchOne(db, key: key)
        else { throw RoleCommandError.noSuchUser(name) }
        return user
    }
}
