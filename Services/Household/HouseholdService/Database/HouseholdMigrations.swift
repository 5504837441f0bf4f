import GRDB

/// The household database's schema, one append-only migration at a time. Never edit a landed migration.
enum HouseholdMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: households, members, invitations, chores, notes, activity") { db in
            try db.execute(
                sql: """
                    CREATE TABLE households (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        time_zone TEXT NOT NULL,
                        created_by TEXT NOT NULL,
                        note_lifetime_days INTEGER NOT NULL DEFAULT 7,
                        created_at DATETIME NOT NULL
                    );

                    -- A user is in at most one household: user_id is unique.
                    CREATE TABLE members (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL UNIQUE,
                        joined_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, user_id)
                    );

                    CREATE TABLE invitations (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        inviter_id TEXT NOT NULL,
                        invitee_id TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        responded_at DATETIME
                    );
                    CREATE UNIQUE INDEX invitations_one_pending
                        ON invitations(household_id, invitee_id) WHERE status = 'pending';
                    CREATE INDEX invitations_by_invitee ON invitations(invitee_id, status);

                    CREATE TABLE custom_chores (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE,
                        points INTEGER NOT NULL,
                        PRIMARY KEY (household_id, name)
                    );

                    CREATE TABLE chores (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        points INTEGER NOT NULL,
                        schedule_kind TEXT NOT NULL,
                        schedule_every INTEGER,
                        schedule_weekdays TEXT,
                        schedule_day INTEGER,
                        assignment_kind TEXT NOT NULL,
                        assignment_fixed TEXT,
                        assignment_order TEXT,
                        assignee_id TEXT,
                        next_due TEXT,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX chores_by_household ON chores(household_id, next_due);

                    CREATE TABLE completions (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        chore_id TEXT NOT NULL,
                        chore_name TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        points INTEGER NOT NULL,
                        due_on TEXT,
                        completed_on TEXT NOT NULL,
                        completed_at DATETIME NOT NULL,
                        note TEXT
                    );
                    CREATE INDEX completions_by_household ON completions(household_id, completed_on, id);

                    CREATE TABLE notes (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        pinned INTEGER NOT NULL DEFAULT 0,
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME NOT NULL,
                        photo BLOB,
                        photo_type TEXT,
                        photo_etag TEXT
                    );
                    CREATE INDEX notes_by_household ON notes(household_id, expires_at);

                    CREATE TABLE activity (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        actor_id TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX activity_by_household ON activity(household_id, id);
                    """)
        }
        migrator.registerMigration("v2: bills, their shares, payments") { db in
            try db.execute(
                sql: """
                    -- Amounts are integer minor units of `currency` (ISO 4217).
                    CREATE TABLE bills (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        description TEXT NOT NULL,
                        amount INTEGER NOT NULL CHECK (amount > 0),
                        currency TEXT NOT NULL,
                        payer_id TEXT NOT NULL,
                        split_kind TEXT NOT NULL,
                        created_by TEXT NOT NULL,
                        idempotency_key TEXT,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX bills_by_household ON bills(household_id, created_at, id);
                    CREATE UNIQUE INDEX bills_by_idempotency_key
                        ON bills(household_id, created_by, idempotency_key) WHERE idempotency_key IS NOT NULL;

                    CREATE TABLE bill_shares (
                        bill_id TEXT NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        amount INTEGER NOT NULL,
                        PRIMARY KEY (bill_id, user_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE payments (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        from_id TEXT NOT NULL,
                        to_id TEXT NOT NULL,
                        amount INTEGER NOT NULL CHECK (amount > 0),
                        currency TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX payments_by_household ON payments(household_id, currency);
                    """)
        }
        return migrator
    }
}
