import GRDB
import ServiceKit

/// The geo database's schema, one append-only migration at a time. Never edit a landed migration.
enum GeoMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: pins, spatial index, cluster cells, photos, colours, gazetteer") { db in
            try db.execute(
                sql: """
                    -- The integer id is shared with pins_rtree, so a box query joins on the primary key.
                    CREATE TABLE pins (
                        id INTEGER PRIMARY KEY,
                        user_id TEXT NOT NULL,
                        latitude REAL NOT NULL,
                        longitude REAL NOT NULL,
                        place_name TEXT NOT NULL,
                        place_id INTEGER,
                        country_code TEXT,
                        note TEXT,
                        visited_on TEXT,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX pins_by_user ON pins(user_id, id);
                    CREATE INDEX pins_by_place ON pins(place_id) WHERE place_id IS NOT NULL;

                    CREATE VIRTUAL TABLE pins_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);

                    -- Pin counts per grid cell for every clustering zoom (0...12): a world view reads a few
                    -- dozen rows instead of a million pins. Cell size is 360 / 2^(zoom + 3) degrees; the
                    -- cell of a point is (lon + 180) / size and (lat + 90) / size truncated (both >= 0).
                    CREATE TABLE pin_cells (
                        zoom INTEGER NOT NULL,
                        x INTEGER NOT NULL,
                        y INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        sum_lat REAL NOT NULL,
                        sum_lon REAL NOT NULL,
                        PRIMARY KEY (zoom, x, y)
                    ) WITHOUT ROWID;

                    CREATE TABLE cluster_zooms (zoom INTEGER PRIMARY KEY, cells INTEGER NOT NULL);
                    WITH RECURSIVE z(zoom) AS (SELECT 0 UNION ALL SELECT zoom + 1 FROM z WHERE zoom < 12)
                    INSERT INTO cluster_zooms SELECT zoom, 8 << zoom FROM z;

                    CREATE TRIGGER pins_added AFTER INSERT ON pins BEGIN
                        INSERT INTO pins_rtree VALUES (NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
                        INSERT INTO pin_cells (zoom, x, y, count, sum_lat, sum_lon)
                            SELECT zoom,
                                min(CAST((NEW.longitude + 180) * cells / 360.0 AS INTEGER), cells - 1),
                                min(CAST((NEW.latitude + 90) * cells / 360.0 AS INTEGER), cells / 2 - 1),
                                1, NEW.latitude, NEW.longitude
                            FROM cluster_zooms WHERE true
                        ON CONFLICT (zoom, x, y) DO UPDATE SET
                            count = count + 1, sum_lat = sum_lat + excluded.sum_lat, sum_lon = sum_lon + excluded.sum_lon;
                    END;

                    CREATE TRIGGER pins_removed AFTER DELETE ON pins BEGIN
                        DELETE FROM pins_rtree WHERE id = OLD.id;
                        UPDATE pin_cells SET count = count - 1, sum_lat = sum_lat - OLD.latitude,
                            sum_lon = sum_lon - OLD.longitude
                        WHERE (zoom, x, y) IN (
                            SELECT zoom, min(CAST((OLD.longitude + 180) * cells / 360.0 AS INTEGER), cells - 1),
                                min(CAST((OLD.latitude + 90) * cells / 360.0 AS INTEGER), cells / 2 - 1)
                            FROM cluster_zooms);
                        DELETE FROM pin_cells WHERE count <= 0;
                    END;

                    CREATE TRIGGER pins_moved AFTER UPDATE OF latitude, longitude ON pins
                    WHEN OLD.latitude IS NOT NEW.latitude OR OLD.longitude IS NOT NEW.longitude BEGIN
                        UPDATE pins_rtree SET min_lat = NEW.latitude, max_lat = NEW.latitude,
                            min_lon = NEW.longitude, max_lon = NEW.longitude WHERE id = NEW.id;
                        UPDATE pin_cells SET count = count - 1, sum_lat = sum_lat - OLD.latitude,
                            sum_lon = sum_lon - OLD.longitude
                        WHERE (zoom, x, y) IN (
                            SELECT zoom, min(CAST((OLD.longitude + 180) * cells / 360.0 AS INTEGER), cells - 1),
                                min(CAST((OLD.latitude + 90) * cells / 360.0 AS INTEGER), cells / 2 - 1)
                            FROM cluster_zooms);
                        DELETE FROM pin_cells WHERE count <= 0;
                        INSERT INTO pin_cells (zoom, x, y, count, sum_lat, sum_lon)
                            SELECT zoom,
                                min(CAST((NEW.longitude + 180) * cells / 360.0 AS INTEGER), cells - 1),
                                min(CAST((NEW.latitude + 90) * cells / 360.0 AS INTEGER), cells / 2 - 1),
                                1, NEW.latitude, NEW.longitude
                            FROM cluster_zooms WHERE true
                        ON CONFLICT (zoom, x, y) DO UPDATE SET
                            count = count + 1, sum_lat = sum_lat + excluded.sum_lat, sum_lon = sum_lon + excluded.sum_lon;
                    END;

                    CREATE TABLE pin_photos (
                        id TEXT PRIMARY KEY,
                        pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
                        bytes BLOB NOT NULL,
                        media_type TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        byte_count INTEGER NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX pin_photos_by_pin ON pin_photos(pin_id, created_at);

                    -- A viewer's colour choices: per category, and per pin (any pin they can see).
                    CREATE TABLE color_choices (
                        user_id TEXT PRIMARY KEY,
                        own TEXT,
                        friend TEXT,
                        other TEXT
                    );
                    CREATE TABLE pin_colors (
                        user_id TEXT NOT NULL,
                        pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
                        color TEXT NOT NULL,
                        PRIMARY KEY (user_id, pin_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX pin_colors_by_pin ON pin_colors(pin_id);

                    -- Whether strangers may see my name in who-visited lists (friends always may); no row: yes.
                    CREATE TABLE privacy (
                        user_id TEXT PRIMARY KEY,
                        listed_to_strangers INTEGER NOT NULL
                    );

                    -- The gazetteer (GeoNames cities15000), loaded once from the shipped TSV.
                    CREATE TABLE places (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        ascii_name TEXT NOT NULL,
                        country_code TEXT NOT NULL,
                        latitude REAL NOT NULL,
                        longitude REAL NOT NULL,
                        population INTEGER NOT NULL
                    );
                    CREATE VIRTUAL TABLE places_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                    -- Every name of a place (name, ASCII name, alternates), with its case- and accent-folded form.
                    CREATE TABLE place_names (
                        id INTEGER PRIMARY KEY,
                        place_id INTEGER NOT NULL REFERENCES places(id),
                        name TEXT NOT NULL,
                        folded TEXT NOT NULL
                    );
                    CREATE INDEX place_names_by_folded ON place_names(folded);
                    CREATE VIRTUAL TABLE place_names_fts USING fts5(
                        name, content='place_names', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
                    -- Typo tolerance: trigrams of the folded names (SQLite 3.34+).
                    CREATE VIRTUAL TABLE place_names_trigram USING fts5(
                        folded, content='place_names', content_rowid='id', tokenize='trigram');
                    """)
        }
        migrator.registerMigration("v2: packs, members, anonymous posts, comments, votes") { db in
            try db.execute(
                sql: """
                    -- Anonymous local packs (Skwad). Author and member ids never leave the service: responses
                    -- carry per-pack pseudonyms and "this is mine" flags only.
                    CREATE TABLE packs (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        latitude REAL NOT NULL,
                        longitude REAL NOT NULL,
                        radius_meters INTEGER NOT NULL,
                        tags TEXT NOT NULL, -- JSON array of lower-case tags
                        color TEXT NOT NULL,
                        icon TEXT NOT NULL,
                        locked INTEGER NOT NULL,
                        alpha_id TEXT NOT NULL,
                        official INTEGER NOT NULL, -- made by an admin: never expires
                        member_count INTEGER NOT NULL DEFAULT 0,
                        post_count INTEGER NOT NULL DEFAULT 0,
                        up_votes INTEGER NOT NULL DEFAULT 0,
                        down_votes INTEGER NOT NULL DEFAULT 0,
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME, -- NULL: never
                        warned INTEGER NOT NULL DEFAULT 0 -- members were told it expires within the hour
                    );
                    CREATE INDEX packs_by_expiry ON packs(expires_at) WHERE expires_at IS NOT NULL;
                    CREATE INDEX packs_by_alpha ON packs(alpha_id);

                    -- Pack centres; discover widens its box by the largest pack radius to find packs around me.
                    CREATE VIRTUAL TABLE packs_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);

                    -- A member's pseudonym is reserved for the pack's lifetime, also after leaving, so two
                    -- writers never share one. `active = 0`: left the pack.
                    CREATE TABLE pack_members (
                        pack_id INTEGER NOT NULL REFERENCES packs(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        pseudonym TEXT NOT NULL,
                        active INTEGER NOT NULL,
                        joined_at DATETIME NOT NULL,
                        PRIMARY KEY (pack_id, user_id),
                        UNIQUE (pack_id, pseudonym)
                    ) WITHOUT ROWID;
                    CREATE INDEX pack_members_by_user ON pack_members(user_id, pack_id) WHERE active = 1;

                    -- `hot` is the time-decayed vote score (see PostRanking); it is fixed between votes, so
                    -- "top" is an index walk per pack.
                    CREATE TABLE posts (
                        id INTEGER PRIMARY KEY,
                        pack_id INTEGER NOT NULL REFERENCES packs(id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL,
                        pseudonym TEXT NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL,
                        tags TEXT NOT NULL,
                        up_votes INTEGER NOT NULL DEFAULT 0,
                        down_votes INTEGER NOT NULL DEFAULT 0,
                        comment_count INTEGER NOT NULL DEFAULT 0,
                        hot REAL NOT NULL,
                        hidden INTEGER NOT NULL DEFAULT 0, -- fell to a score of -5: gone for everyone but its writer
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX posts_by_pack ON posts(pack_id, id);
                    CREATE INDEX posts_by_pack_hot ON posts(pack_id, hot, id);
                    CREATE INDEX posts_by_author ON posts(author_id, id);

                    CREATE TABLE comments (
                        id INTEGER PRIMARY KEY,
                        post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL,
                        pseudonym TEXT NOT NULL,
                        body TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX comments_by_post ON comments(post_id, id);
                    CREATE INDEX comments_by_author ON comments(author_id, id);

                    CREATE TABLE votes (
                        post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        value INTEGER NOT NULL CHECK (value IN (-1, 1)),
                        PRIMARY KEY (post_id, user_id)
                    ) WITHOUT ROWID;

                    -- Votes a writer's posts earned, kept after their packs are flushed (the den's total).
                    CREATE TABLE karma (
                        user_id TEXT PRIMARY KEY,
                        up_votes INTEGER NOT NULL,
                        down_votes INTEGER NOT NULL
                    );

                    -- The key of the pseudonym hash, made once per database.
                    CREATE TABLE pseudonym_key (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        key BLOB NOT NULL
                    );
                    INSERT INTO pseudonym_key VALUES (1, randomblob(32));

                    CREATE TRIGGER packs_added AFTER INSERT ON packs BEGIN
                        INSERT INTO packs_rtree VALUES (NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
                    END;
                    CREATE TRIGGER packs_removed AFTER DELETE ON packs BEGIN
                        DELETE FROM packs_rtree WHERE id = OLD.id;
                    END;
                    """)
        }
        migrator.registerMigration("v3: pins by user and latitude, for the map") { db in
            try db.execute(
                sql: """
                    -- The map reads my and my friends' pins in a latitude band: this finds them without reading
                    -- each user's other pins, and holds every column the map shows (the id is the rowid).
                    CREATE INDEX pins_by_user_and_latitude ON pins(user_id, latitude, longitude, place_name);
                    """)
        }
        migrator.registerMigration("v4: place and pin regions, the gazetteer's fingerprint") { db in
            try db.execute(
                sql: """
                    -- The first-level division (state, province, Land) a place is in; a pin's, from its place or the
                    -- nearest one (reverse lookup).
                    ALTER TABLE places ADD COLUMN region TEXT;
                    ALTER TABLE pins ADD COLUMN region TEXT;
                    -- The gazetteer file the places came from: a start with another file replaces them.
                    CREATE TABLE gazetteer_source (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        sha256 TEXT NOT NULL,
                        places INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5: reports, hidden comments, muted writers") { db in
            try db.execute(
                sql: """
                    -- One row per report of a post or comment (issue 47). Open while decided_at IS NULL; an admin's
                    -- keep or remove closes the round. Writer and reporter ids never leave the service (admins
                    -- see the writer's).
                    CREATE TABLE reports (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('post', 'comment')),
                        item_id INTEGER NOT NULL,
                        pack_id INTEGER NOT NULL REFERENCES packs(id) ON DELETE CASCADE,
                        writer_id TEXT NOT NULL,
                        reporter_id TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        note TEXT,
                        created_at DATETIME NOT NULL,
                        decision TEXT CHECK (decision IN ('keep', 'remove')),
                        decided_by TEXT,
                        decided_at DATETIME
                    );
                    -- One open report per person per item.
                    CREATE UNIQUE INDEX reports_open_by_reporter ON reports(kind, item_id, reporter_id)
                        WHERE decided_at IS NULL;
                    CREATE INDEX reports_by_pack ON reports(pack_id);

                    -- Reported by enough people: gone for everyone but its writer until an admin decides.
                    ALTER TABLE comments ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

                    -- "Mute this writer": kept against the writer's account, so it covers their later posts and
                    -- survives their leaving and rejoining; never shown to the muter.
                    CREATE TABLE pack_mutes (
                        pack_id INTEGER NOT NULL REFERENCES packs(id) ON DELETE CASCADE,
                        muter_id TEXT NOT NULL,
                        writer_id TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (pack_id, muter_id, writer_id)
                    ) WITHOUT ROWID;
                    """)
        }
        // Notices and events waiting for the notifications service (ServiceKit's outbox).
        OutboxMigrations.register(in: &migrator)
        migrator.registerMigration("v6: votes on comments, posts in karma") { db in
            try db.execute(
                sql: """
                    -- Comments are voted on as posts are (VoteTally): their counts, and one vote per member.
                    ALTER TABLE comments ADD COLUMN up_votes INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE comments ADD COLUMN down_votes INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE comment_votes (
                        comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        value INTEGER NOT NULL CHECK (value IN (-1, 1)),
                        PRIMARY KEY (comment_id, user_id)
                    ) WITHOUT ROWID;

                    -- Posts a writer wrote count in their karma (Karma), kept after their packs are flushed; the
                    -- posts still stored start the count.
                    ALTER TABLE karma ADD COLUMN posts INTEGER NOT NULL DEFAULT 0;
                    INSERT INTO karma (user_id, up_votes, down_votes, posts)
                        SELECT author_id, 0, 0, count(*) FROM posts WHERE true GROUP BY author_id
                        ON CONFLICT (user_id) DO UPDATE SET posts = excluded.posts;
                    """)
        }
        migrator.registerMigration("v7: reactions to pins") { db in
            try db.execute(
                sql: """
                    -- One row per person and pin, kept when the reaction is removed (kind NULL), so the owner is
                    -- told of a friend's reaction once.
                    CREATE TABLE pin_reactions (
                        pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        kind TEXT,
                        reacted_at DATETIME NOT NULL,
                        PRIMARY KEY (pin_id, user_id)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v8: trips") { db in
            try db.execute(
                sql: """
                    -- A named journey of one user; its pins are those visited between its days (not stored). The
                    -- cover is a photo of one of the owner's pins; deleting the photo clears it.
                    CREATE TABLE trips (
                        id INTEGER PRIMARY KEY,
                        user_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        starts_on TEXT NOT NULL,
                        ends_on TEXT NOT NULL,
                        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'friends')),
                        cover_photo_id TEXT REFERENCES pin_photos(id) ON DELETE SET NULL,
                        cover_pin_id INTEGER,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX trips_by_user ON trips(user_id, starts_on);
                    """)
        }
        return migrator
    }
}
