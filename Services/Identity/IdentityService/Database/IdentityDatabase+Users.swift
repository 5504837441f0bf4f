import Foundation
import GRDB
import PlatformKit

// Accounts: creating, finding, editing and searching users.
extension IdentityDatabase {
    /// Inserts a new user; a taken username or e-mail is ``IdentityError/usernameTaken(_:)`` or
    /// ``IdentityError/emailTaken``.
    func createUser(_ user: UserRecord, verification: (token: EmailVerificationTokenRecord, mail: MailMessage)? = nil)
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
        try await read { db in try UserRecord.fetchOne(db, key: id) }
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

    /// Users whose username or display name starts with `prefix`, by username, after `cursor`.
    func searchUsers(prefix: String, after cursor: String?, limit: Int) async throws -> [UserRecord] {
        let pattern = Self.escapeLike(prefix) + "%"
        return try await read { db in
            try UserRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM users
                    WHERE username IS NOT NULL
                      AND (username LIKE ? ESCAPE '\\' OR display_name LIKE ? ESCAPE '\\')
                      AND username > ?
                    ORDER BY username LIMIT ?
                    """,
                arguments: [pattern, pattern, cursor ?? "", limit])
        }
    }

    static func checkAvailable(_ db: Database, username: String?, email: String?, except id: String?) throws {
        if let username,
            let owner = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username]),
            owner != id
        {
            throw IdentityError.usernameTaken(username)
        }
        if let email,
            let owner = try String.fetchOne(db, sql: "SELECT id FROM users WHERE email = ?", arguments: [email]),
            owner != id
        {
            throw IdentityError.emailTaken
        }
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
