import GRDB
import ServiceKit

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
        migrator.registerMigration("v3: groceries, shopping trips, running balances, payment handles, reminders") {
            db in
            try db.execute(
                sql: """
                    -- owner_id NULL: the communal list; otherwise the owner's personal list. merge_key is the
                    -- name folded for case and plural, so "Eggs" and "egg" make one line of the household list.
                    CREATE TABLE grocery_items (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        owner_id TEXT,
                        name TEXT NOT NULL,
                        merge_key TEXT NOT NULL,
                        quantity INTEGER NOT NULL CHECK (quantity > 0),
                        note TEXT,
                        visible INTEGER NOT NULL DEFAULT 1,
                        created_by TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX grocery_items_by_household ON grocery_items(household_id, merge_key);

                    -- A completed shopping trip; its cost is the bill `bill_id` (bills.trip_id points back).
                    CREATE TABLE shopping_trips (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        shopper_id TEXT NOT NULL,
                        total INTEGER NOT NULL CHECK (total > 0),
                        currency TEXT NOT NULL,
                        bill_id TEXT NOT NULL,
                        idempotency_key TEXT,
                        receipt BLOB,
                        receipt_type TEXT,
                        receipt_etag TEXT,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX shopping_trips_by_household ON shopping_trips(household_id, created_at, id);
                    CREATE UNIQUE INDEX shopping_trips_by_idempotency_key
                        ON shopping_trips(household_id, shopper_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

                    -- wanted_by: JSON object member id -> quantity they wanted.
                    CREATE TABLE trip_items (
                        trip_id TEXT NOT NULL REFERENCES shopping_trips(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        price INTEGER,
                        communal_quantity INTEGER NOT NULL,
                        wanted_by TEXT NOT NULL,
                        PRIMARY KEY (trip_id, position)
                    ) WITHOUT ROWID;

                    ALTER TABLE bills ADD COLUMN trip_id TEXT;

                    -- Each member's net per currency, kept in the same transaction as every bill, trip and
                    -- payment write, so balances read 20 rows instead of summing every share ever made.
                    CREATE TABLE member_balances (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        currency TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        net INTEGER NOT NULL,
                        PRIMARY KEY (household_id, currency, user_id)
                    ) WITHOUT ROWID;
                    INSERT INTO member_balances (household_id, currency, user_id, net)
                    SELECT household_id, currency, user_id, SUM(amount) FROM (
                        SELECT household_id, currency, payer_id AS user_id, amount FROM bills
                        UNION ALL
                        SELECT b.household_id, b.currency, s.user_id, -s.amount
                        FROM bill_shares s JOIN bills b ON b.id = s.bill_id
                        UNION ALL
                        SELECT household_id, currency, from_id, amount FROM payments
                        UNION ALL
                        SELECT household_id, currency, to_id, -amount FROM payments
                    ) GROUP BY household_id, currency, user_id HAVING SUM(amount) != 0;

                    CREATE TABLE payment_handles (
                        user_id TEXT PRIMARY KEY,
                        venmo TEXT,
                        paypal TEXT,
                        updated_at DATETIME NOT NULL
                    );

                    -- The last reminder a creditor sent a debtor (one per 24 hours).
                    CREATE TABLE reminders (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        creditor_id TEXT NOT NULL,
                        debtor_id TEXT NOT NULL,
                        sent_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, creditor_id, debtor_id)
                    ) WITHOUT ROWID;

                    -- Months whose end-of-month reminders a household has had (month is YYYY-MM, local).
                    CREATE TABLE month_end_reminders (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        month TEXT NOT NULL,
                        sent_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, month)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4: bill images") { db in
            try db.execute(
                sql: """
                    -- A bill's optional image (a photo of the receipt or invoice); it goes when the bill goes.
                    CREATE TABLE bill_images (
                        bill_id TEXT PRIMARY KEY REFERENCES bills(id) ON DELETE CASCADE,
                        bytes BLOB NOT NULL,
                        type TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        uploaded_by TEXT NOT NULL,
                        uploaded_at DATETIME NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v5: invitations of members who left are withdrawn") { db in
            try db.execute(
                sql: """
                    -- An invitation speaks for its inviter; those who left before this rule took effect.
                    UPDATE invitations SET status = 'withdrawn', responded_at = CURRENT_TIMESTAMP
                    WHERE status = 'pending' AND NOT EXISTS (
                        SELECT 1 FROM members
                        WHERE members.household_id = invitations.household_id
                          AND members.user_id = invitations.inviter_id
                    );
                    """)
        }
        migrator.registerMigration("v6: shopping check-off, member settings, month-end reminders per member") { db in
            try db.execute(
                sql: """
                    -- A member's trip under way (one per member and household) and what they ticked off in it:
                    -- one row per line of the household list (its merge key), with the price if they entered one.
                    CREATE TABLE shopping_trips_current (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        shopper_id TEXT NOT NULL,
                        started_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, shopper_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE shopping_checks (
                        household_id TEXT NOT NULL,
                        shopper_id TEXT NOT NULL,
                        merge_key TEXT NOT NULL,
                        item_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        price INTEGER,
                        checked_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, shopper_id, merge_key),
                        FOREIGN KEY (household_id, shopper_id)
                            REFERENCES shopping_trips_current (household_id, shopper_id) ON DELETE CASCADE
                    ) WITHOUT ROWID;

                    -- A member's own settings, kept with their account: when the month-end reminder comes
                    -- (days before the month's last day, local hour) and the board's background.
                    CREATE TABLE member_settings (
                        user_id TEXT PRIMARY KEY,
                        reminder_days_before INTEGER NOT NULL DEFAULT 0,
                        reminder_hour INTEGER NOT NULL DEFAULT 0,
                        board_background TEXT,
                        updated_at DATETIME NOT NULL
                    ) WITHOUT ROWID;

                    -- Month-end reminders are claimed per member now that each picks their own time; months
                    -- already reminded stay reminded for everyone who was a member.
                    CREATE TABLE month_end_reminders_sent (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        month TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        sent_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, month, user_id)
                    ) WITHOUT ROWID;
                    INSERT INTO month_end_reminders_sent (household_id, month, user_id, sent_at)
                    SELECT r.household_id, r.month, m.user_id, r.sent_at
                    FROM month_end_reminders r JOIN members m ON m.household_id = r.household_id;
                    """)
        }
        migrator.registerMigration("v7: a revision per household, for the chore lists kept encoded") { db in
            try db.execute(
                sql: """
                    -- Bumped on every change to a household's chores or members, or to its time zone (what its chore
                    -- list shows), by triggers so that no write can forget it. The chores controller serves a kept list
                    -- only under the revision it was read at. Nothing else writes the column: it never goes back.
                    ALTER TABLE households ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                    CREATE TRIGGER chores_revision_insert AFTER INSERT ON chores BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id = new.household_id;
                    END;
                    CREATE TRIGGER chores_revision_update AFTER UPDATE ON chores BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id IN (old.household_id, new.household_id);
                    END;
                    CREATE TRIGGER chores_revision_delete AFTER DELETE ON chores BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id = old.household_id;
                    END;
                    CREATE TRIGGER members_revision_insert AFTER INSERT ON members BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id = new.household_id;
                    END;
                    CREATE TRIGGER members_revision_update AFTER UPDATE ON members BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id IN (old.household_id, new.household_id);
                    END;
                    CREATE TRIGGER members_revision_delete AFTER DELETE ON members BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id = old.household_id;
                    END;
                    CREATE TRIGGER households_revision_update AFTER UPDATE OF time_zone ON households BEGIN
                        UPDATE households SET revision = revision + 1 WHERE id = new.id;
                    END;
                    """)
        }
        migrator.registerMigration("v8: household events and members' answers") { db in
            try db.execute(
                sql: """
                    -- Cancelled events stay (cancelled_at set). finishes_at is ends_at, or starts_at without an end:
                    -- the lists split upcoming from past by it. reminded_at: the reminder for the current start was
                    -- claimed (cleared when the start moves).
                    CREATE TABLE household_events (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        creator_id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        note TEXT,
                        place TEXT,
                        starts_at DATETIME NOT NULL,
                        ends_at DATETIME,
                        finishes_at DATETIME NOT NULL,
                        remind_minutes_before INTEGER NOT NULL,
                        remind_at DATETIME NOT NULL,
                        reminded_at DATETIME,
                        cancelled_at DATETIME,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX household_events_by_start ON household_events(household_id, starts_at, id);
                    -- The reminder job's scan: only reminders still to send.
                    CREATE INDEX household_events_to_remind ON household_events(remind_at)
                        WHERE reminded_at IS NULL AND cancelled_at IS NULL;

                    CREATE TABLE household_event_answers (
                        event_id TEXT NOT NULL REFERENCES household_events(id) ON DELETE CASCADE,
                        household_id TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        answer TEXT NOT NULL,
                        answered_at DATETIME NOT NULL,
                        PRIMARY KEY (event_id, user_id)
                    ) WITHOUT ROWID;
                    """)
        }
        // Notices and events waiting for the notifications service (ServiceKit's outbox).
        OutboxMigrations.register(in: &migrator)
        migrator.registerMigration("v9: bill categories") { db in
            try db.execute(
                sql: """
                    -- One of BillCategory.all; the bills before categories are `other`.
                    ALTER TABLE bills ADD COLUMN category TEXT NOT NULL DEFAULT 'other';
                    CREATE INDEX bills_by_category ON bills(household_id, category, created_at, id);
                    """)
        }
        migrator.registerMigration("v10: chore due reminders") { db in
            try db.execute(
                sql: """
                    -- A row per chore and due day whose reminder was claimed (and sent): never twice.
                    CREATE TABLE chore_reminders_sent (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        chore_id TEXT NOT NULL,
                        due_on TEXT NOT NULL,
                        user_id TEXT NOT NULL,
                        sent_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, chore_id, due_on)
                    ) WITHOUT ROWID;
                    -- The reminder job's scan: chores falling due around today.
                    CREATE INDEX chores_by_next_due ON chores(next_due) WHERE assignee_id IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v11: recurring bills") { db in
            try db.execute(
                sql: """
                    -- A bill to make on each day of a schedule (kind monthly/weekly/everyDays and its one number);
                    -- next_on is the next day in the household's zone. split: the request's split object as JSON.
                    CREATE TABLE recurring_bills (
                        id TEXT PRIMARY KEY,
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        created_by TEXT NOT NULL,
                        description TEXT NOT NULL,
                        amount INTEGER NOT NULL CHECK (amount > 0),
                        currency TEXT NOT NULL,
                        payer_id TEXT,
                        split TEXT NOT NULL,
                        category TEXT NOT NULL,
                        schedule_kind TEXT NOT NULL,
                        schedule_value INTEGER NOT NULL,
                        next_on TEXT NOT NULL,
                        stopped_at DATETIME,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX recurring_bills_by_household ON recurring_bills(household_id, created_at, id);
                    -- The job's scan: only recurring bills still running.
                    CREATE INDEX recurring_bills_to_make ON recurring_bills(next_on, id) WHERE stopped_at IS NULL;

                    -- A row per recurring bill and day whose bill was made (bill_id NULL when it could not be:
                    -- someone it names left): never twice.
                    CREATE TABLE recurring_bill_runs (
                        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                        recurring_bill_id TEXT NOT NULL,
                        day TEXT NOT NULL,
                        bill_id TEXT,
                        made_at DATETIME NOT NULL,
                        PRIMARY KEY (household_id, recurring_bill_id, day)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v12: bills paid by several people") { db in
            try db.execute(
                sql: """
                    -- What each of several payers paid of a bill, adding up to its amount. A bill without rows here
                    -- was paid by its payer_id alone, as every bill before v12 was: nothing to backfill.
                    CREATE TABLE bill_payers (
                        bill_id TEXT NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        amount INTEGER NOT NULL CHECK (amount > 0),
                        PRIMARY KEY (bill_id, user_id)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
