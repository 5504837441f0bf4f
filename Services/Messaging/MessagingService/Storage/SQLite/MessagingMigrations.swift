import GRDB
import ServiceKit

/// The messaging database's schema, one append-only migration at a time. Never edit a landed migration.
enum MessagingMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: conversations, members, topics, topic states, messages, search") { db in
            try db.execute(
                sql: """
                    -- `activity` orders the conversation list: the id of the latest message, or the highest message
                    -- id when the conversation was created (message ids only grow, so it follows time).
                    CREATE TABLE conversations (
                        id TEXT PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('direct', 'group')),
                        name TEXT,
                        -- "<smaller id> <larger id>" for a direct conversation: one per pair.
                        direct_key TEXT UNIQUE,
                        created_by TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        last_message_id INTEGER,
                        activity INTEGER NOT NULL DEFAULT 0
                    );

                    -- last_read_id: every message up to it is read (a monotonic marker).
                    CREATE TABLE members (
                        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
                        muted INTEGER NOT NULL DEFAULT 0,
                        last_read_id INTEGER NOT NULL DEFAULT 0,
                        joined_at DATETIME NOT NULL,
                        PRIMARY KEY (conversation_id, user_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX members_by_user ON members(user_id, conversation_id);

                    CREATE TABLE topics (
                        id INTEGER PRIMARY KEY,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE,
                        resolved INTEGER NOT NULL DEFAULT 0,
                        created_by TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        last_message_id INTEGER,
                        last_activity_at DATETIME NOT NULL,
                        UNIQUE (conversation_id, name)
                    );

                    -- A member's policy for a topic and their read marker inside it (read from a topic view).
                    CREATE TABLE topic_states (
                        topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        policy TEXT NOT NULL DEFAULT 'inherit' CHECK (policy IN ('inherit', 'followed', 'muted')),
                        last_read_id INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (topic_id, user_id)
                    ) WITHOUT ROWID;

                    -- mentions: the ids of the members the text names, space separated.
                    CREATE TABLE messages (
                        id INTEGER PRIMARY KEY,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        topic_id INTEGER REFERENCES topics(id),
                        sender_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        mentions TEXT NOT NULL DEFAULT '',
                        idempotency_key TEXT,
                        created_at DATETIME NOT NULL,
                        edited_at DATETIME
                    );
                    -- Covering for unread counts: the range after a read marker, the sender and topic in the index.
                    CREATE INDEX messages_by_conversation ON messages(conversation_id, id, sender_id, topic_id);
                    CREATE INDEX messages_by_topic ON messages(topic_id, id, sender_id) WHERE topic_id IS NOT NULL;
                    CREATE UNIQUE INDEX messages_by_idempotency_key
                        ON messages(conversation_id, sender_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

                    -- Keyword search (FTS5, bm25): an external-content index over messages.text kept by triggers.
                    CREATE VIRTUAL TABLE message_search USING fts5(
                        text, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
                    );
                    CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
                        INSERT INTO message_search(rowid, text) VALUES (new.id, new.text);
                    END;
                    CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
                        INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.id, old.text);
                    END;
                    CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages BEGIN
                        INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.id, old.text);
                        INSERT INTO message_search(rowid, text) VALUES (new.id, new.text);
                    END;
                    """)
        }
        // Products (issue 18): every conversation belongs to the app it was started in; the earlier ones to
        // WeGroup. A pair's direct key names the product, so each app has its own direct chat per pair.
        migrator.registerMigration("v2-messaging-product") { db in
            try db.execute(
                sql: """
                    ALTER TABLE conversations ADD COLUMN product TEXT NOT NULL DEFAULT 'wegroup';
                    UPDATE conversations SET direct_key = 'wegroup ' || direct_key WHERE direct_key IS NOT NULL;
                    CREATE INDEX conversations_by_product ON conversations(product, kind);
                    """)
        }
        migrator.registerMigration("v3: message ids are never reused") { db in
            try db.execute(
                sql: """
                    -- `id INTEGER PRIMARY KEY` takes MAX(id) + 1, so deleting the newest message handed its id to the
                    -- next one: read markers, cursors and live events named two messages by one id. The next id
                    -- now comes from here and only grows.
                    CREATE TABLE message_ids (next INTEGER NOT NULL);
                    INSERT INTO message_ids (next) SELECT COALESCE(MAX(id), 0) + 1 FROM messages;
                    """)
        }
        migrator.registerMigration("v4: a revision per conversation, for the latest pages kept encoded") { db in
            try db.execute(
                sql: """
                    -- Bumped on every change to a conversation's messages or to its topics' names (the two things a page
                    -- of messages shows), by triggers so that no write can forget it. `latestPages` serves a kept page
                    -- only under the revision it was read at. Nothing else writes the column: it never goes back.
                    ALTER TABLE conversations ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                    CREATE TRIGGER messages_revision_insert AFTER INSERT ON messages BEGIN
                        UPDATE conversations SET revision = revision + 1 WHERE id = new.conversation_id;
                    END;
                    CREATE TRIGGER messages_revision_update AFTER UPDATE ON messages BEGIN
                        UPDATE conversations SET revision = revision + 1
                        WHERE id IN (old.conversation_id, new.conversation_id);
                    END;
                    CREATE TRIGGER messages_revision_delete AFTER DELETE ON messages BEGIN
                        UPDATE conversations SET revision = revision + 1 WHERE id = old.conversation_id;
                    END;
                    CREATE TRIGGER topics_revision_update AFTER UPDATE OF name, conversation_id ON topics BEGIN
                        UPDATE conversations SET revision = revision + 1
                        WHERE id IN (old.conversation_id, new.conversation_id);
                    END;
                    CREATE TRIGGER topics_revision_delete AFTER DELETE ON topics BEGIN
                        UPDATE conversations SET revision = revision + 1 WHERE id = old.conversation_id;
                    END;
                    """)
        }
        migrator.registerMigration("v5: reported messages") { db in
            try db.execute(
                sql: """
                    -- Reported by enough members: left out for everyone but its sender until an admin decides.
                    ALTER TABLE messages ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
                    -- The unread counts' covering indexes, now holding whether a message is hidden.
                    DROP INDEX messages_by_conversation;
                    CREATE INDEX messages_by_conversation ON messages(conversation_id, id, sender_id, topic_id, hidden);
                    DROP INDEX messages_by_topic;
                    CREATE INDEX messages_by_topic ON messages(topic_id, id, sender_id, hidden) WHERE topic_id IS NOT NULL;
                    -- Whether a conversation holds hidden messages (its pages then differ by reader).
                    CREATE INDEX messages_hidden ON messages(conversation_id) WHERE hidden = 1;

                    -- One row per report of a message (issue 47). Open while decided_at IS NULL; an admin's keep or
                    -- remove closes the round. Sender and reporter ids never leave the service (admins see the
                    -- sender's).
                    CREATE TABLE message_reports (
                        id INTEGER PRIMARY KEY,
                        message_id INTEGER NOT NULL,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        sender_id TEXT NOT NULL,
                        reporter_id TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        note TEXT,
                        created_at DATETIME NOT NULL,
                        decision TEXT CHECK (decision IN ('keep', 'remove')),
                        decided_by TEXT,
                        decided_at DATETIME
                    );
                    -- One open report per member per message.
                    CREATE UNIQUE INDEX message_reports_open_by_reporter ON message_reports(message_id, reporter_id)
                        WHERE decided_at IS NULL;
                    """)
        }
        // Notices and events waiting for the notifications service (ServiceKit's outbox).
        OutboxMigrations.register(in: &migrator)
        migrator.registerMigration("v6: reactions") { db in
            try db.execute(
                sql: """
                    -- One row per member, emoji and message (issue 48). A page of messages shows them, so they bump the
                    -- conversation's revision as messages do.
                    CREATE TABLE reactions (
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        conversation_id TEXT NOT NULL,
                        emoji TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (message_id, emoji, user_id)
                    ) WITHOUT ROWID;
                    CREATE TRIGGER reactions_revision_insert AFTER INSERT ON reactions BEGIN
                        UPDATE conversations SET revision = revision + 1 WHERE id = new.conversation_id;
                    END;
                    CREATE TRIGGER reactions_revision_delete AFTER DELETE ON reactions BEGIN
                        UPDATE conversations SET revision = revision + 1 WHERE id = old.conversation_id;
                    END;
                    """)
        }
        migrator.registerMigration("v7: pinned topics, read receipt settings") { db in
            try db.execute(
                sql: """
                    -- Pinned to the top of this member's topic list (Zulip's "pin to top").
                    ALTER TABLE topic_states ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
                    -- A member's messaging settings; no row means the defaults (read receipts shared).
                    CREATE TABLE reader_settings (
                        user_id TEXT PRIMARY KEY,
                        share_read_receipts INTEGER NOT NULL DEFAULT 1
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v8: images in messages") { db in
            try db.execute(
                sql: """
                    -- An image uploaded to a conversation (issue 48): waiting for its message while message_id IS NULL
                    -- (only its uploader may read it; swept after a day), then shown with the message, in `position`
                    -- order, and deleted with it. Width and height are as shown, from the image's header.
                    CREATE TABLE message_images (
                        id TEXT PRIMARY KEY,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL DEFAULT 0,
                        uploaded_by TEXT NOT NULL,
                        bytes BLOB NOT NULL,
                        type TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        byte_count INTEGER NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX message_images_by_message ON message_images(message_id, position)
                        WHERE message_id IS NOT NULL;
                    -- An uploader's uploads not sent yet (their count is bounded), and the sweep's.
                    CREATE INDEX message_images_unsent ON message_images(uploaded_by, created_at) WHERE message_id IS NULL;
                    CREATE INDEX message_images_unsent_by_age ON message_images(created_at) WHERE message_id IS NULL;
                    """)
        }
        return migrator
    }
}
