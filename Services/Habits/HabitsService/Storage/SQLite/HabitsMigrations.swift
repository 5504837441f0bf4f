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
        return migrator
    }
}
