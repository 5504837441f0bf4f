import GRDB

/// The identity database's schema, one append-only migration at a time. Never edit a landed migration.
enum IdentityMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, sessions, reset tokens, outbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY,
                        email TEXT UNIQUE COLLATE NOCASE,
                        email_verified INTEGER NOT NULL DEFAULT 0,
                        username TEXT UNIQUE COLLATE NOCASE,
                        password_hash TEXT,
                        display_name TEXT NOT NULL DEFAULT '',
                        bio TEXT NOT NULL DEFAULT '',
                        home_city TEXT NOT NULL DEFAULT '',
                        roles TEXT NOT NULL DEFAULT '',
                        avatar_etag TEXT,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX users_by_display_name ON users(display_name COLLATE NOCASE);

                    CREATE TABLE avatars (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        media_type TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        bytes BLOB NOT NULL
                    );

                    CREATE TABLE external_identities (
                        issuer TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (issuer, subject)
                    );
                    CREATE INDEX external_identities_by_user ON external_identities(user_id);

                    CREATE TABLE sessions (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        user_agent TEXT,
                        created_at DATETIME NOT NULL,
                        last_used_at DATETIME NOT NULL,
                        revoked_at DATETIME,
                        revoke_reason TEXT
                    );
                    CREATE INDEX sessions_by_user ON sessions(user_id);

                    CREATE TABLE refresh_tokens (
                        token_hash TEXT PRIMARY KEY,
                        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        rotated_at DATETIME
                    );
                    CREATE INDEX refresh_tokens_by_session ON refresh_tokens(session_id);

                    CREATE TABLE password_reset_tokens (
                        token_hash TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME NOT NULL,
                        used_at DATETIME
                    );
                    CREATE INDEX password_reset_tokens_by_user ON password_reset_tokens(user_id);

                    CREATE TABLE outbox_emails (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        recipient TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        body TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        next_attempt_at DATETIME NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        sent_at DATETIME,
                        last_error TEXT
                    );
                    CREATE INDEX outbox_emails_pending ON outbox_emails(next_attempt_at) WHERE sent_at IS NULL;
                    """)
        }
        migrator.registerMigration("v2: ended sessions for the revocation feed") { db in
            // One row per session ended before its access tokens expired, written in the transaction that ends
            // it; the gateway and the services long-poll them by sequence (AUTOINCREMENT: never reused).
            try db.execute(
                sql: """
                    CREATE TABLE session_revocations (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        session_id TEXT NOT NULL,
                        expires_at DATETIME NOT NULL
                    );
                    CREATE INDEX session_revocations_by_expiry ON session_revocations(expires_at);
                    """)
        }
        migrator.registerMigration("v3: e-mail verification tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE email_verification_tokens (
                        token_hash TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        email TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME NOT NULL,
                        used_at DATETIME
                    );
                    CREATE INDEX email_verification_tokens_by_user ON email_verification_tokens(user_id);
                    """)
        }
        migrator.registerMigration("v4-accounts-mail-codes") { db in
            // The six-digit code mailed beside each link, hashed, and the wrong tries against it; and whether a
            // verification token moves the account to its address (an e-mail change) rather than confirming it.
            try db.execute(
                sql: """
                    ALTER TABLE password_reset_tokens ADD COLUMN code_hash TEXT;
                    ALTER TABLE password_reset_tokens ADD COLUMN code_attempts INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE email_verification_tokens ADD COLUMN code_hash TEXT;
                    ALTER TABLE email_verification_tokens ADD COLUMN code_attempts INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE email_verification_tokens ADD COLUMN changes_email BOOLEAN NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v5: session expiry, OpenID nonces") { db in
            // Sessions end 90 days after sign-in or 30 days unused (SessionLifetime): the expiry job finds live ones
            // past either by these, and deletes ended ones a while after they ended. Nonces are issued for OpenID
            // sign-in and linking, stored hashed, deleted when used or expired.
            try db.execute(
                sql: """
                    CREATE INDEX sessions_live_by_creation ON sessions(created_at) WHERE revoked_at IS NULL;
                    CREATE INDEX sessions_live_by_last_use ON sessions(last_used_at) WHERE revoked_at IS NULL;
                    CREATE INDEX sessions_ended_by_time ON sessions(revoked_at) WHERE revoked_at IS NOT NULL;

                    CREATE TABLE oidc_nonces (
                        nonce_hash TEXT PRIMARY KEY,
                        expires_at DATETIME NOT NULL
                    );
                    CREATE INDEX oidc_nonces_by_expiry ON oidc_nonces(expires_at);
                    """)
        }
        return migrator
    }
}
