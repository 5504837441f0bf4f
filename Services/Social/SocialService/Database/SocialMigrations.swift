import GRDB

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
        return migrator
    }
}
