import ServiceKit

/// The social graph's PostgreSQL schema, one step at a time. APPEND-ONLY: never edit or reorder a landed step; add a
/// new one. It keeps what SQLite's `SocialMigrations` keeps, the PostgreSQL way.
///
/// Ids compare and sort as SQLite's BINARY does (`COLLATE "C"`); usernames sort ASCII case-insensitively as SQLite's
/// `NOCASE` does (`ascii_lower`). Instants are integer milliseconds since 1970, the precision SQLite keeps, so both
/// engines page by the same keys. Each table names its distribution key, the column Citus or a sharding scheme
/// would spread it by.
enum PostgresSocialMigrations {
    static let all: [PostgresMigration] = [
        PostgresMigration(
            "v1: friendships, requests, follows, blocks, profiles, relationship changes",
            """
            CREATE FUNCTION ascii_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                SELECT translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
            $$;

            -- Distribution key: user_low. One row per friendship, the smaller id first, so a pair is stored once.
            CREATE TABLE friendships (
                user_low text COLLATE "C" NOT NULL,
                user_high text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL,
                PRIMARY KEY (user_low, user_high),
                CHECK (user_low < user_high)
            );
            CREATE INDEX friendships_by_high ON friendships (user_high, user_low);

            -- Distribution key: sender_id. At most one pending request per pair, either way.
            CREATE TABLE friend_requests (
                id text COLLATE "C" PRIMARY KEY,
                sender_id text COLLATE "C" NOT NULL,
                recipient_id text COLLATE "C" NOT NULL,
                status text NOT NULL,
                created_at bigint NOT NULL,
                responded_at bigint
            );
            CREATE UNIQUE INDEX friend_requests_one_pending
                ON friend_requests (LEAST(sender_id, recipient_id), GREATEST(sender_id, recipient_id))
                WHERE status = 'pending';
            CREATE INDEX friend_requests_by_recipient ON friend_requests (recipient_id, status);
            CREATE INDEX friend_requests_by_sender ON friend_requests (sender_id, status);

            -- Distribution key: follower_id.
            CREATE TABLE follows (
                follower_id text COLLATE "C" NOT NULL,
                followee_id text COLLATE "C" NOT NULL,
                status text NOT NULL,
                created_at bigint NOT NULL,
                PRIMARY KEY (follower_id, followee_id)
            );
            CREATE INDEX follows_by_followee ON follows (followee_id, status);

            -- Distribution key: blocker_id.
            CREATE TABLE blocks (
                blocker_id text COLLATE "C" NOT NULL,
                blocked_id text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id)
            );
            CREATE INDEX blocks_by_created ON blocks (blocker_id, created_at, blocked_id);
            CREATE INDEX blocks_by_blocked ON blocks (blocked_id);

            -- Distribution key: none, a reference table (every node keeps a copy): profile basics copied from the
            -- identity service, joined with any user's friendships.
            CREATE TABLE profiles (
                user_id text COLLATE "C" PRIMARY KEY,
                username text,
                display_name text NOT NULL,
                avatar_url text,
                fetched_at bigint NOT NULL
            );
            CREATE INDEX profiles_by_username ON profiles ((ascii_lower(username) COLLATE "C"), user_id);

            -- Distribution key: none, a reference table of one row: the last sequence handed to a change. Every
            -- transaction that records a change updates it first and holds its row lock until it commits, so
            -- sequences are handed out in commit order: a reader that has seen sequence 12 can never be shown a
            -- sequence 11 committed later (a plain sequence could commit out of order and be skipped).
            CREATE TABLE relationship_change_counter (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                last bigint NOT NULL
            );
            INSERT INTO relationship_change_counter (last) VALUES (0);

            -- Distribution key: none, a reference table: the feed the services that keep a copy of the graph read.
            -- Filled by triggers, so no write path can forget it; only the latest 10,000 are kept (a reader further
            -- behind is told to start again).
            CREATE TABLE relationship_changes (
                sequence bigint PRIMARY KEY,
                user_id text NOT NULL
            );

            -- Records `users` as changed, in order, and tells every replica at commit (`PostgresSocialStore`'s
            -- listener rings the feed's long polls).
            CREATE FUNCTION record_relationship_changes(users text[]) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                top bigint;
            BEGIN
                UPDATE relationship_change_counter SET last = last + cardinality(users) RETURNING last INTO top;
                INSERT INTO relationship_changes (sequence, user_id)
                    SELECT top - cardinality(users) + u.position, u.user_id
                    FROM unnest(users) WITH ORDINALITY AS u(user_id, position);
                DELETE FROM relationship_changes WHERE sequence <= top - 10000;
                PERFORM pg_notify('social_relationship_changes', top::text);
            END
            $$;

            -- A row of friendships or blocks changed: both its users (the columns the trigger names), before and
            -- after, as SQLite's triggers record them.
            CREATE FUNCTION relationship_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                users text[] := ARRAY[]::text[];
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    users := users || ARRAY[to_jsonb(OLD) ->> TG_ARGV[0], to_jsonb(OLD) ->> TG_ARGV[1]];
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    users := users || ARRAY[to_jsonb(NEW) ->> TG_ARGV[0], to_jsonb(NEW) ->> TG_ARGV[1]];
                END IF;
                PERFORM record_relationship_changes(users);
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER friendships_change AFTER INSERT OR UPDATE OR DELETE ON friendships
                FOR EACH ROW EXECUTE FUNCTION relationship_row_changed('user_low', 'user_high');
            CREATE TRIGGER blocks_change AFTER INSERT OR UPDATE OR DELETE ON blocks
                FOR EACH ROW EXECUTE FUNCTION relationship_row_changed('blocker_id', 'blocked_id')
            """),
        // Notices and events waiting for the notifications service (ServiceKit's outbox); drained from its head by
        // one replica at a time, so it is not distributed (distribution key, were it: seq).
        OutboxMigrations.postgres,
    ]
}
