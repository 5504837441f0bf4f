import GRDB
import ServiceKit

/// The social graph's schema, one append-only migration at a time. Never edit a landed migration.
enum SocialMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: friendships, requests, follows, blocks, profiles") { db in
            try db.execute(
                sql: """
                    -- One row per friendship, the smaller id first, so a pair is stored once.
                    CREATE TABLE friendships (
                        user_low TEXT NOT NULL,
                        user_high TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (user_low, user_high),
                        CHECK (user_low < user_high)
                    ) WITHOUT ROWID;
                    CREATE INDEX friendships_by_high ON friendships(user_high, user_low);

                    CREATE TABLE friend_requests (
                        id TEXT PRIMARY KEY,
                        sender_id TEXT NOT NULL,
                        recipient_id TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        responded_at DATETIME
                    );
                    CREATE UNIQUE INDEX friend_requests_one_pending
                        ON friend_requests(MIN(sender_id, recipient_id), MAX(sender_id, recipient_id)) WHERE status = 'pending';
                    CREATE INDEX friend_requests_by_recipient ON friend_requests(recipient_id, status);
                    CREATE INDEX friend_requests_by_sender ON friend_requests(sender_id, status);

                    CREATE TABLE follows (
                        follower_id TEXT NOT NULL,
                        followee_id TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (follower_id, followee_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX follows_by_followee ON follows(followee_id, status);

                    CREATE TABLE blocks (
                        blocker_id TEXT NOT NULL,
                        blocked_id TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (blocker_id, blocked_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX blocks_by_blocked ON blocks(blocked_id);

                    -- Profile basics copied from the identity service, for lists and friend search.
                    CREATE TABLE profiles (
                        user_id TEXT PRIMARY KEY,
                        username TEXT COLLATE NOCASE,
                        display_name TEXT NOT NULL COLLATE NOCASE,
                        avatar_url TEXT,
                        fetched_at DATETIME NOT NULL
                    );
                    CREATE INDEX profiles_by_username ON profiles(username, user_id);
                    CREATE INDEX profiles_by_display_name ON profiles(display_name);
                    """)
        }
        migrator.registerMigration("v2: relationship changes, for the services that keep a copy of the graph") { db in
            // Filled by triggers, so no write path can forget it; only the latest 10,000 are kept (a reader
            // further behind is told to start again).
            try db.execute(
                sql: """
                    CREATE TABLE relationship_changes (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id TEXT NOT NULL
                    );
                    -- The one place the retention is kept, for every trigger below.
                    CREATE TRIGGER relationship_changes_pruned AFTER INSERT ON relationship_changes BEGIN
                        DELETE FROM relationship_changes WHERE sequence <= NEW.sequence - 10000;
                    END;
                    CREATE TRIGGER friendships_insert_change AFTER INSERT ON friendships BEGIN
                        INSERT INTO relationship_changes (user_id) VALUES (NEW.user_low), (NEW.user_high);
                    END;
                    CREATE TRIGGER friendships_delete_change AFTER DELETE ON friendships BEGIN
                        INSERT INTO relationship_changes (user_id) VALUES (OLD.user_low), (OLD.user_high);
                    END;
                    CREATE TRIGGER friendships_update_change AFTER UPDATE ON friendships BEGIN
                        INSERT INTO relationship_changes (user_id)
                        VALUES (OLD.user_low), (OLD.user_high), (NEW.user_low), (NEW.user_high);
                    END;
                    CREATE TRIGGER blocks_insert_change AFTER INSERT ON blocks BEGIN
                        INSERT INTO relationship_changes (user_id) VALUES (NEW.blocker_id), (NEW.blocked_id);
                    END;
                    CREATE TRIGGER blocks_delete_change AFTER DELETE ON blocks BEGIN
                        INSERT INTO relationship_changes (user_id) VALUES (OLD.blocker_id), (OLD.blocked_id);
                    END;
                    CREATE TRIGGER blocks_update_change AFTER UPDATE ON blocks BEGIN
                        INSERT INTO relationship_changes (user_id)
                        VALUES (OLD.blocker_id), (OLD.blocked_id), (NEW.blocker_id), (NEW.blocked_id);
                    END;
                    """)
        }
        // Notices and events waiting for the notifications service (ServiceKit's outbox).
        OutboxMigrations.register(in: &migrator)
        return migrator
    }
}
