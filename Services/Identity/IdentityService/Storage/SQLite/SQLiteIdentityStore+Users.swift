import Foundation
import GRDB
import PlatformKit
import ServiceKit

// Accounts: creating, finding, editing and searching users.
extension SQLiteIdentityStore {
    /// Inserts a new user; a taken username or e-mail is ``IdentityError/usernameTaken(_:)`` or
    /// ``IdentityError/emailTaken``.
    func createUser(_ user: UserRecord, verification: (token: EmailVerificationTokenRecord, mail: MailMessage)?)
        async throws
    {
        try await write { db in
            try Self.checkAvailable(db, username: user.username, email: user.email, except: nil)
            try user.insert(db)
            if let verification {
                try verification.token.insert(db)
                try Self.enqueue(db, verification.mail, now: verification.token.createdAt)
            }
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await read { db in
            try UserRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?"), arguments: [id])
        }
    }

    /// The user an e-mail address or username designates.
    func user(identifier: String) async throws -> UserRecord? {
        try await read { db in
            if identifier.contains("@") {
                return try UserRecord.filter(UserRecord.Columns.email == identifier).fetchOne(db)
            }
            return try UserRecord.filter(UserRecord.Columns.username == identifier).fetchOne(db)
        }
    }

    func users(ids: [String]) async throws -> [UserRecord] {
        try await read { db in try UserRecord.fetchAll(db, keys: ids) }
    }

    /// Applies a profile change; a username already taken is ``IdentityError/usernameTaken(_:)``.
    func updateUser(id: String, now: Date, _ change: @Sendable @escaping (inout UserRecord) -> Void) async throws
        -> UserRecord
    {
        try await write { db in
            guard var user = try UserRecord.fetchOne(db, key: id) else { throw IdentityError.notFound("The user") }
            let before = user
            change(&user)
            if user.username != before.username {
                try Self.checkAvailable(db, username: user.username, email: nil, except: id)
            }
            user.updatedAt = now
            try user.update(db)
            return user
        }
    }

    /// Users with a username, other than `viewer`, whose username or display name contains `text` (already
    /// lower-cased): exact matches first, then those starting with it, then the rest, each by username;
    /// after `cursor`, at most `limit`, each with its rank for the next cursor.
    func directory(matching text: String, viewer: String, after cursor: DirectoryCursor?, limit: Int) async throws
        -> [(user: UserRecord, rank: Int)]
    {
        let escaped = TextSearch.escaped(text)
        return try await read { db in
            // `COLLATE NOCASE` is ASCII case-insensitive equality, as `LIKE` and the search itself are.
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM (
                            SELECT users.*, CASE
                                WHEN username = ? COLLATE NOCASE OR display_name = ? COLLATE NOCASE THEN 0
                                WHEN \(TextSearch.startsWith("username"))
                                    OR \(TextSearch.startsWith("display_name")) THEN 1
                                ELSE 2 END AS match_rank
                            FROM users
                            WHERE username IS NOT NULL AND id != ?
                              AND (\(TextSearch.contains("username")) OR \(TextSearch.contains("display_name"))))
                        WHERE (match_rank, username) > (?, ?)
                        ORDER BY match_rank, username LIMIT ?
                        """),
                arguments: [
                    text, text, escaped, escaped, viewer, escaped, escaped, cursor?.rank ?? -1,
                    cursor?.username ?? "", limit,
                ]
            ).map { row in
                let rank: Int = row["match_rank"]
                return (user: try UserRecord(row: row), rank: rank)
            }
        }
    }

    /// Users with a username, other than `viewer`, by username after `username`, at most `limit`: the directory to
    /// browse without a query (the username's unique index orders it).
    func directory(viewer: String, after username: String?, limit: Int) async throws -> [UserRecord] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM users WHERE username IS NOT NULL AND username > ? AND id != ?
                        ORDER BY username LIMIT ?
                        """),
                arguments: [username ?? "", viewer, limit]
            ).map { try UserRecord(row: $0) }
        }
    }

    static func checkAvailable(_ db: Database, username: String?, email: String?, except id: String?) throws {
        if let username,
            let owner = try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM users WHERE username = ?"), arguments: [username]),
            owner != id
        {
            throw IdentityError.usernameTaken(username)
        }
        if let email,
            let owner = try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM users WHERE email = ?"), arguments: [email]),
            owner != id
        {
            throw IdentityError.emailTaken
        }
    }
}
