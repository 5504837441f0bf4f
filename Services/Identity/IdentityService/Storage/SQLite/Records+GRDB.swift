import Foundation
import GRDB
import ServiceKit

// How the records map to the SQLite tables (GRDB); the records themselves are plain values (Storage/Records).

extension AvatarRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "avatars"

    enum Columns {
        static let userId = Column("user_id")
    }
}

extension EmailVerificationTokenRecord: ServiceTable, PersistableRecord, MailedTokenRecord {
    static let databaseTableName = "email_verification_tokens"

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let userId = Column("user_id")
        static let email = Column("email")
        static let usedAt = Column("used_at")
        static let expiresAt = Column("expires_at")
        static let createdAt = Column("created_at")
        static let codeHash = Column("code_hash")
    }
}

extension ExternalIdentityRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "external_identities"

    enum Columns {
        static let issuer = Column("issuer")
        static let subject = Column("subject")
        static let userId = Column("user_id")
        static let createdAt = Column("created_at")
    }
}

extension OutboxEmailRecord: ServiceTable {
    static let databaseTableName = "outbox_emails"

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    enum Columns {
        static let id = Column("id")
        static let sentAt = Column("sent_at")
        static let nextAttemptAt = Column("next_attempt_at")
    }
}

extension PasswordResetTokenRecord: ServiceTable, PersistableRecord, MailedTokenRecord {
    static let databaseTableName = "password_reset_tokens"

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let userId = Column("user_id")
        static let usedAt = Column("used_at")
        static let expiresAt = Column("expires_at")
        static let createdAt = Column("created_at")
        static let codeHash = Column("code_hash")
    }
}

extension RefreshTokenRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "refresh_tokens"

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let sessionId = Column("session_id")
        static let rotatedAt = Column("rotated_at")
    }
}

extension SessionRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "sessions"

    enum Columns {
        static let id = Column("id")
        static let userId = Column("user_id")
        static let revokedAt = Column("revoked_at")
        static let lastUsedAt = Column("last_used_at")
    }
}

extension SessionRevocationRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "session_revocations"

    enum Columns {
        static let sequence = Column("sequence")
        static let sessionId = Column("session_id")
        static let expiresAt = Column("expires_at")
    }
}

extension UserRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "users"

    enum Columns {
        static let id = Column("id")
        static let email = Column("email")
        static let username = Column("username")
        static let displayName = Column("display_name")
    }
}
