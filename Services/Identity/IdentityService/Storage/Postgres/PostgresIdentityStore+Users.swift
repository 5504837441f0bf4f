import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

// Accounts: creating, finding, editing and searching users; their pictures.
//
// Usernames and e-mail addresses compare as SQLite's `COLLATE NOCASE` does (ASCII letters folded, nothing else):
// `lower(x COLLATE "C")`, the expression the unique indexes hold. Usernames order by it too, bytewise (SQLite's
// NOCASE order), whatever the database's locale.
extension PostgresIdentityStore {
    func createUser(_ user: UserRecord, verification: (token: EmailVerificationTokenRecord, mail: MailMessage)?)
        async throws
    {
        try await write { sql in
            try await Self.checkAvailable(sql, username: user.username, email: user.email, except: nil)
            try await Self.insert(sql, user)
            if let verification {
                try await Self.insert(sql, verification.token)
                try await Self.enqueue(sql, verification.mail, now: verification.token.createdAt)
            }
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await usersByID.value(for: Self.cutAtNUL(id))
    }

    /// Every signed-in profile read, batched (``usersByID``) and prepared, so each connection plans it once.
    struct UsersByID: PostgresPreparedStatement {
        static let sql = "SELECT \(UserRecord.postgresColumns) FROM users WHERE id = ANY($1)"
        let ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> UserRecord { try UserRecord(postgres: row) }
    }

    func user(identifier: String) async throws -> UserRecord? {
        let identifier = Self.cutAtNUL(identifier)
        return try await read { sql in
            try await Self.user(sql, email: identifier.contains("@") ? identifier : nil, username: identifier)
        }
    }

    func users(ids: [String]) async throws -> [UserRecord] {
        let ids = ids.map(Self.cutAtNUL)
        return try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = ANY(\(ids))
                ORDER BY id COLLATE "C"
                """
            ).map(UserRecord.init(postgres:))
        }
    }

    func updateUser(id: String, now: Date, _ change: @Sendable @escaping (inout UserRecord) -> Void) async throws
        -> UserRecord
    {
        try await write { sql in
            guard
                var user = try await sql.first(
                    "SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = \(id)",
                    UserRecord.init(postgres:))
            else { throw IdentityError.notFound("The user") }
            let before = user
            change(&user)
            if user.username != before.username {
                try await Self.checkAvailable(sql, username: user.username, email: nil, except: id)
            }
            user.updatedAt = now
            try await Self.update(sql, user)
            return user
        }
    }

    func directory(matching text: String, viewer: String, after cursor: DirectoryCursor?, limit: Int) async throws
        -> [(user: UserRecord, rank: Int)]
    {
        let text = Self.cutAtNUL(text)
        // `TextSearch.escaped` escapes with `\`, which `ESCAPE '\'` means here as in SQLite.
        let escaped = TextSearch.escaped(text)
        let afterRank = cursor?.rank ?? -1
        let afterUsername = Self.cutAtNUL(cursor?.username ?? "")
        return try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: UserRecord.postgresColumns), match_rank FROM (
                    SELECT users.*, CASE
                        WHEN lower(username COLLATE "C") = lower(\(text) COLLATE "C")
                            OR lower(display_name COLLATE "C") = lower(\(text) COLLATE "C") THEN 0
                        WHEN lower(username COLLATE "C") LIKE lower(\(escaped) COLLATE "C") || '%' ESCAPE '\\'
                            OR lower(display_name COLLATE "C") LIKE lower(\(escaped) COLLATE "C") || '%' ESCAPE '\\'
                            THEN 1
                        ELSE 2 END AS match_rank
                    FROM users
                    WHERE username IS NOT NULL AND id <> \(viewer)
                      AND (lower(username COLLATE "C") LIKE '%' || lower(\(escaped) COLLATE "C") || '%' ESCAPE '\\'
                        OR lower(display_name COLLATE "C") LIKE '%' || lower(\(escaped) COLLATE "C") || '%' ESCAPE '\\')
                ) AS matches
                WHERE (match_rank, lower(username COLLATE "C")) > (\(afterRank), lower(\(afterUsername) COLLATE "C"))
                ORDER BY match_rank, lower(username COLLATE "C") LIMIT \(limit)
                """
            ).map { row in
                (user: try UserRecord(postgres: row), rank: try row.makeRandomAccess()["match_rank"].decode(Int.self))
            }
        }
    }

    func directory(viewer: String, after username: String?, limit: Int) async throws -> [UserRecord] {
        let after = Self.cutAtNUL(username ?? "")
        return try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: UserRecord.postgresColumns) FROM users
                WHERE username IS NOT NULL AND lower(username COLLATE "C") > lower(\(after) COLLATE "C")
                  AND id <> \(viewer)
                ORDER BY lower(username COLLATE "C") LIMIT \(limit)
                """
            ).map(UserRecord.init(postgres:))
        }
    }

    // MARK: Avatars

    func setAvatar(_ avatar: AvatarRecord, now: Date) async throws {
        try await write { sql in
            try await sql.execute(
                """
                INSERT INTO avatars (user_id, media_type, etag, bytes)
                VALUES (\(avatar.userId), \(avatar.mediaType), \(avatar.etag), \(avatar.bytes))
                ON CONFLICT (user_id) DO UPDATE
                SET media_type = EXCLUDED.media_type, etag = EXCLUDED.etag, bytes = EXCLUDED.bytes
                """)
            try await sql.execute(
                "UPDATE users SET avatar_etag = \(avatar.etag), updated_at = \(now) WHERE id = \(avatar.userId)")
        }
    }

    func deleteAvatar(userID: String, now: Date) async throws -> Bool {
        try await write { sql in
            let deleted = try await sql.execute("DELETE FROM avatars WHERE user_id = \(userID) RETURNING 1")
            try await sql.execute("UPDATE users SET avatar_etag = NULL, updated_at = \(now) WHERE id = \(userID)")
            return deleted > 0
        }
    }

    func avatar(userID: String) async throws -> AvatarRecord? {
        let userID = Self.cutAtNUL(userID)
        return try await read { sql in
            try await sql.first("SELECT user_id, media_type, etag, bytes FROM avatars WHERE user_id = \(userID)") {
                let (userId, mediaType, etag, bytes) = try $0.decode((String, String, String, Data).self)
                return AvatarRecord(userId: userId, mediaType: mediaType, etag: etag, bytes: bytes)
            }
        }
    }

    // MARK: Helpers for the concern files

    /// `text` up to its first NUL. SQLite binds a string as a C string (up to its first NUL), and PostgreSQL's `text`
    /// cannot hold one (it refuses the statement): a client's value is cut there, so both engines answer alike.
    static func cutAtNUL(_ text: String) -> String {
        guard let nul = text.utf8.firstIndex(of: 0) else { return text }
        return String(text[..<nul])
    }

    /// The user with this e-mail address (when `email` is given) or else this username, as NOCASE compares them.
    static func user(_ sql: PostgresSession, email: String?, username: String) async throws -> UserRecord? {
        if let email {
            return try await sql.first(
                """
                SELECT \(unescaped: UserRecord.postgresColumns) FROM users
                WHERE lower(email COLLATE "C") = lower(\(email) COLLATE "C")
                """, UserRecord.init(postgres:))
        }
        return try await sql.first(
            """
            SELECT \(unescaped: UserRecord.postgresColumns) FROM users
            WHERE lower(username COLLATE "C") = lower(\(username) COLLATE "C")
            """, UserRecord.init(postgres:))
    }

    /// The id of the account with this e-mail address.
    static func emailOwner(_ sql: PostgresSession, _ email: String) async throws -> String? {
        try await sql.first(
            "SELECT id FROM users WHERE lower(email COLLATE \"C\") = lower(\(email) COLLATE \"C\")"
        ) { try $0.decode(String.self) }
    }

    static func checkAvailable(_ sql: PostgresSession, username: String?, email: String?, except id: String?) async throws {
        if let username,
            let owner = try await sql.first(
                "SELECT id FROM users WHERE lower(username COLLATE \"C\") = lower(\(username) COLLATE \"C\")",
                { try $0.decode(String.self) }),
            owner != id
        {
            throw IdentityError.usernameTaken(username)
        }
        if let email, let owner = try await emailOwner(sql, email), owner != id {
            throw IdentityError.emailTaken
        }
    }

    /// Inserts `user`; a username or address another transaction took meanwhile is the same error as one taken
    /// before (the unique indexes decide).
    static func insert(_ sql: PostgresSession, _ user: UserRecord) async throws {
        try await takenAsDomainError(user) {
            try await sql.execute(
                """
                INSERT INTO users (\(unescaped: UserRecord.postgresColumns))
                VALUES (\(user.id), \(user.email), \(user.emailVerified), \(user.username), \(user.passwordHash),
                    \(user.displayName), \(user.bio), \(user.homeCity), \(user.roles), \(user.avatarEtag),
                    \(user.createdAt), \(user.updatedAt))
                """)
        }
    }

    /// Writes every column of `user` (as GRDB's `update` does).
    static func update(_ sql: PostgresSession, _ user: UserRecord) async throws {
        try await takenAsDomainError(user) {
            try await sql.execute(
                """
                UPDATE users SET email = \(user.email), email_verified = \(user.emailVerified),
                    username = \(user.username), password_hash = \(user.passwordHash),
                    display_name = \(user.displayName), bio = \(user.bio), home_city = \(user.homeCity),
                    roles = \(user.roles), avatar_etag = \(user.avatarEtag), created_at = \(user.createdAt),
                    updated_at = \(user.updatedAt)
                WHERE id = \(user.id)
                """)
        }
    }

    private static func takenAsDomainError(_ user: UserRecord, _ body: () async throws -> Int) async throws {
        do {
            _ = try await body()
        } catch let error as PSQLError where error.isUniqueViolation {
            switch error.serverInfo?[.constraintName] {
            case "users_username_key": throw IdentityError.usernameTaken(user.username ?? "")
            case "users_email_key": throw IdentityError.emailTaken
            default: throw error
            }
        }
    }
}
