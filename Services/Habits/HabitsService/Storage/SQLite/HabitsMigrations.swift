import GRDB

/// The habits database's schema, one append-only migration at a time. Never edit a landed migration.
enum HabitsMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: preferences, habits, events, photos, event locations") { db in
            try db.execute(
                sql: """
                    CREATE TABLE preferences (
                        user_id TEXT PRIMARY KEY,
                        time_zone TEXT NOT NULL
                    );

                    -- weekdays: bit 0 = Monday ... bit 6 = Sunday. start_date: YYYY-MM-DD in the owner's zone.
                    CREATE TABLE habits (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        reason TEXT NOT NULL DEFAULT '',
                        weekdays INTEGER NOT NULL,
                        start_date TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX habits_by_user ON habits(user_id, created_at);

                    -- At most one event per habit per day: the unique key also serves per-habit ranges.
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY,
                        habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        day TEXT NOT NULL,
                        comment TEXT,
                        latitude REAL,
                        longitude REAL,
                        photo_type TEXT,
                        idempotency_key TEXT,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL,
                        UNIQUE (habit_id, day)
                    );
                    CREATE INDEX events_by_user ON events(user_id, day, id);
                    CREATE UNIQUE INDEX events_by_idempotency_key ON events(user_id, idempotency_key)
                        WHERE idempotency_key IS NOT NULL;

                    CREATE TABLE photos (
                        event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
                        bytes BLOB NOT NULL
                    );

                    -- "Near me": a bounding-box index of located events, kept in step by triggers.
                    CREATE VIRTUAL TABLE event_locations USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                    CREATE TRIGGER event_location_insert AFTER INSERT ON events
                        WHEN NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL
                    BEGIN
                        INSERT INTO event_locations VALUES (NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
                    END;
                    CREATE TRIGGER event_location_update AFTER UPDATE OF latitude, longitude ON events
                    BEGIN
                        DELETE FROM event_locations WHERE id = OLD.id;
                        INSERT INTO event_locations
                            SELECT NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude
                            WHERE NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL;
                    END;
                    CREATE TRIGGER event_location_delete AFTER DELETE ON events
                    BEGIN
                        DELETE FROM event_locations WHERE id = OLD.id;
                    END;
                    """)
        }
        migrator.registerMigration("v2: commented events by user, for the history's comment search") { db in
            try db.execute(
                sql: """
                    -- A comment search reads each person's events newest first until a page matches: this reads
                    -- only the commented ones and holds the comment, so no row is looked up in the table.
                    CREATE INDEX events_with_comment_by_user ON events(user_id, day, id, comment)
                        WHERE comment IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v3: measurable habits: a target and unit, and each event's value") { db in
            try db.execute(
                sql: """
                    -- Thousandths: 2.5 l is 2500, compared exactly.
                    ALTER TABLE habits ADD COLUMN target_milli INTEGER;
                    ALTER TABLE habits ADD COLUMN unit TEXT;
                    ALTER TABLE events ADD COLUMN value_milli INTEGER;
                    """)
        }
        migrator.registerMigration("v4: skipped days and pauses") { db in
            try db.execute(
                sql: """
                    CREATE TABLE skips (
                        habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        day TEXT NOT NULL,
                        PRIMARY KEY (habit_id, day)
                    ) WITHOUT ROWID;
                    -- from_day ... to_day inclusive, YYYY-MM-DD in the owner's zone.
                    CREATE TABLE pauses (
                        id INTEGER PRIMARY KEY,
                        habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        from_day TEXT NOT NULL,
                        to_day TEXT NOT NULL
                    );
                    CREATE INDEX pauses_by_habit ON pauses(habit_id, to_day);
                    """)
        }
        migrator.registerMigration("v5: archived habits and a manual order") { db in
            try db.execute(
                sql: """
                    ALTER TABLE habits ADD COLUMN archived_at DATETIME;
                    ALTER TABLE habits ADD COLUMN sort_order INTEGER;
                    """)
        }
        migrator.registerMigration("v6: habit reminders, and the reminders sent") { db in
            try db.execute(
                sql: """
                    -- reminder_minute: the local time, minutes after midnight in the owner's zone.
                    ALTER TABLE habits ADD COLUMN reminder_minute INTEGER;
                    CREATE INDEX habits_with_reminder ON habits(reminder_minute)
                        WHERE reminder_minute IS NOT NULL AND archived_at IS NULL;
                    -- One row per habit and local day, inserted by the claim that sends it: never sent twice.
                    CREATE TABLE reminders_sent (
                        habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                        day TEXT NOT NULL,
                        sent_at DATETIME NOT NULL,
                        PRIMARY KEY (habit_id, day)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
