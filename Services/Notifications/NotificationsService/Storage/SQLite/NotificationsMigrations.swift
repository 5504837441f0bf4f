import GRDB

/// The notifications service's schema, one append-only migration at a time. Never edit a landed migration.
enum NotificationsMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: inbox, stream log, devices, preferences") { db in
            try db.execute(
                sql: """
                    -- The inbox. `number` orders it (newest first) and is the cursor; `id` is what clients see.
                    CREATE TABLE notifications (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        recipient_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        text TEXT NOT NULL,
                        link TEXT NOT NULL,
                        producer TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        read_at DATETIME
                    );
                    -- A producer's retried post finds its notice here and adds nothing.
                    CREATE UNIQUE INDEX notifications_once
                        ON notifications(recipient_id, producer, idempotency_key);
                    CREATE INDEX notifications_by_recipient ON notifications(recipient_id, number);
                    CREATE INDEX notifications_unread ON notifications(recipient_id) WHERE read_at IS NULL;

                    -- What each user's live stream carried, for `Last-Event-ID` resume; pruned after a day.
                    CREATE TABLE stream_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        recipient_id TEXT NOT NULL,
                        type TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX stream_events_by_recipient ON stream_events(recipient_id, seq);
                    CREATE INDEX stream_events_by_age ON stream_events(created_at);

                    -- One APNs token per device; a device that changes hands moves to its new user.
                    CREATE TABLE devices (
                        token TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL,
                        session_id TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX devices_by_user ON devices(user_id);

                    CREATE TABLE preferences (
                        user_id TEXT PRIMARY KEY,
                        disabled_kinds TEXT NOT NULL,
                        quiet_start_minute INTEGER,
                        quiet_end_minute INTEGER,
                        time_zone TEXT,
                        updated_at DATETIME NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
