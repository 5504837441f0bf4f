import ServiceKit

/// The identity database's PostgreSQL schema, one append-only migration at a time: never edit or reorder a landed
/// migration, add a new one.
///
/// The same tables as SQLite's (`IdentityMigrations`), the PostgreSQL way: `timestamptz` for dates, `bytea` for
/// bytes, identity columns for the outbox and the revocation feed (numbered in commit order, see
/// `PostgresIdentityStore+Sessions.swift`). SQLite's `COLLATE NOCASE` (usernames, e-mail addresses) folds ASCII
/// letters only; `lower(x COLLATE "C")` folds exactly those whatever the database's locale, so the unique indexes
/// and every comparison and ordering of those columns use it. Each table says the key it would be distributed by
/// (Citus, or sharding by hand), so that needs no schema change.
enum PostgresIdentityMigrations {
    static let all: [PostgresMigration] = [
        PostgresMigration(
            "v1: users, sessions, tokens, outbox, ended sessions, nonces",
            """
            -- Reference table (every node keeps all of it): small, and usernames and addresses are unique across all
            -- users. Rows are keyed by id, the user id every other service stores.
            CREATE TABLE users (
                id text PRIMARY KEY,
                email text,
                email_verified boolean NOT NULL DEFAULT false,
                username text,
                password_hash text,
                display_name text NOT NULL DEFAULT '',
                bio text NOT NULL DEFAULT '',
                home_city text NOT NULL DEFAULT '',
                roles text NOT NULL DEFAULT '',
                avatar_etag text,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL
            );
            CREATE UNIQUE INDEX users_email_key ON users (lower(email COLLATE "C"));
            CREATE UNIQUE INDEX users_username_key ON users (lower(username COLLATE "C"));
            CREATE INDEX users_by_display_name ON users (lower(display_name COLLATE "C"));

            -- Distributed by user_id.
            CREATE TABLE avatars (
                user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                media_type text NOT NULL,
                etag text NOT NULL,
                bytes bytea NOT NULL
            );

            -- Distributed by subject (the issuer's user id, part of the key every sign-in looks up).
            CREATE TABLE external_identities (
                issuer text NOT NULL,
                subject text NOT NULL,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (issuer, subject)
            );
            CREATE INDEX external_identities_by_user ON external_identities (user_id);

            -- Distributed by id (the session id, `sid` of its access tokens).
            CREATE TABLE sessions (
                id text PRIMARY KEY,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                user_agent text,
                created_at timestamptz NOT NULL,
                last_used_at timestamptz NOT NULL,
                revoked_at timestamptz,
                revoke_reason text
            );
            CREATE INDEX sessions_by_user ON sessions (user_id);
            CREATE INDEX sessions_live_by_creation ON sessions (created_at) WHERE revoked_at IS NULL;
            CREATE INDEX sessions_live_by_last_use ON sessions (last_used_at) WHERE revoked_at IS NULL;
            CREATE INDEX sessions_ended_by_time ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

            -- Distributed by token_hash (the only thing a client presents).
            CREATE TABLE refresh_tokens (
                token_hash text PRIMARY KEY,
                session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                rotated_at timestamptz
            );
            CREATE INDEX refresh_tokens_by_session ON refresh_tokens (session_id);

            -- Distributed by token_hash.
            CREATE TABLE password_reset_tokens (
                token_hash text PRIMARY KEY,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                used_at timestamptz,
                code_hash text,
                code_attempts bigint NOT NULL DEFAULT 0
            );
            CREATE INDEX password_reset_tokens_by_user ON password_reset_tokens (user_id);

            -- Distributed by token_hash. `email` compares exactly (SQLite's column has no NOCASE either).
            CREATE TABLE email_verification_tokens (
                token_hash text PRIMARY KEY,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                email text NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                used_at timestamptz,
                code_hash text,
                code_attempts bigint NOT NULL DEFAULT 0,
                changes_email boolean NOT NULL DEFAULT false
            );
            CREATE INDEX email_verification_tokens_by_user ON email_verification_tokens (user_id);
            CREATE INDEX email_verification_tokens_by_email ON email_verification_tokens (email);

            -- Distributed by id. Delivery claims rows with FOR UPDATE SKIP LOCKED, so replicas send each once.
            CREATE TABLE outbox_emails (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                recipient text NOT NULL,
                subject text NOT NULL,
                body text NOT NULL,
                created_at timestamptz NOT NULL,
                next_attempt_at timestamptz NOT NULL,
                attempts bigint NOT NULL DEFAULT 0,
                sent_at timestamptz,
                last_error text
            );
            CREATE INDEX outbox_emails_pending ON outbox_emails (next_attempt_at) WHERE sent_at IS NULL;

            -- Not distributed (a reference table, or the coordinator's own): one feed in one order for every reader.
            -- Writers number their entries under one transaction-scoped advisory lock, so numbers are given in commit
            -- order; the newest entry is never pruned, so max(sequence) never goes back.
            CREATE TABLE session_revocations (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                session_id text NOT NULL,
                expires_at timestamptz NOT NULL
            );
            CREATE INDEX session_revocations_by_expiry ON session_revocations (expires_at);

            -- Distributed by nonce_hash.
            CREATE TABLE oidc_nonces (
                nonce_hash text PRIMARY KEY,
                expires_at timestamptz NOT NULL
            );
            CREATE INDEX oidc_nonces_by_expiry ON oidc_nonces (expires_at)
            """)
    ]
}
