import ServiceKit

/// The household store's PostgreSQL schema. Append-only from its first release: never edit a step, add one.
///
/// It answers as the SQLite schema (`HouseholdMigrations`) does:
/// - text compares and sorts byte by byte as SQLite's BINARY does (`COLLATE "C"` on every text column);
/// - SQLite's `NOCASE` and `LIKE` fold ASCII letters only: `ascii_lower` does the same, no more;
/// - instants are `bigint` milliseconds since 1970, what SQLite keeps (`yyyy-MM-dd HH:mm:ss.SSS`), so every cursor and
///   comparison sees the same instant on both;
/// - money is `bigint` minor units; rowid orders are identity columns (`seq`).
///
/// Each table says the key it would be distributed by (Citus, or shards), so that spreading households over several
/// servers needs no schema change: almost everything is a household's and goes with its id.
enum PostgresHouseholdMigrations {
    static let all: [PostgresMigration] = [
        PostgresMigration(
            "v1: the household schema",
            #"""
            -- SQLite's lower() and NOCASE fold A-Z alone; lower() here would fold every script.
            CREATE FUNCTION ascii_lower(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                AS $$ SELECT translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$;

            -- Distributed by id (the household id). revision: bumped by triggers on every change to the household's
            -- chores, its members or its time zone; the chores controller serves a kept list only under the revision
            -- it was read at, so every replica sees a write made on any other.
            CREATE TABLE households (
                id text COLLATE "C" PRIMARY KEY,
                name text COLLATE "C" NOT NULL,
                time_zone text COLLATE "C" NOT NULL,
                created_by text COLLATE "C" NOT NULL,
                note_lifetime_days bigint NOT NULL DEFAULT 7,
                created_at bigint NOT NULL,
                revision bigint NOT NULL DEFAULT 0
            );

            -- Distributed by household_id. A user is in at most one household: user_id is unique (distributed, that
            -- check would move to a reference table of user ids).
            CREATE TABLE members (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                user_id text COLLATE "C" NOT NULL UNIQUE,
                joined_at bigint NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                PRIMARY KEY (household_id, user_id)
            );

            -- Distributed by household_id.
            CREATE TABLE invitations (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                inviter_id text COLLATE "C" NOT NULL,
                invitee_id text COLLATE "C" NOT NULL,
                status text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL,
                responded_at bigint
            );
            CREATE UNIQUE INDEX invitations_one_pending
                ON invitations(household_id, invitee_id) WHERE status = 'pending';
            CREATE INDEX invitations_by_invitee ON invitations(invitee_id, status);

            -- Distributed by household_id. A name once per household, ignoring ASCII case (SQLite's NOCASE key).
            CREATE TABLE custom_chores (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                name text COLLATE "C" NOT NULL,
                points bigint NOT NULL
            );
            CREATE UNIQUE INDEX custom_chores_by_name ON custom_chores(household_id, ascii_lower(name));

            -- Distributed by household_id.
            CREATE TABLE chores (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                name text COLLATE "C" NOT NULL,
                points bigint NOT NULL,
                schedule_kind text COLLATE "C" NOT NULL,
                schedule_every bigint,
                schedule_weekdays text COLLATE "C",
                schedule_day bigint,
                assignment_kind text COLLATE "C" NOT NULL,
                assignment_fixed text COLLATE "C",
                assignment_order text COLLATE "C",
                assignee_id text COLLATE "C",
                next_due text COLLATE "C",
                created_at bigint NOT NULL
            );
            CREATE INDEX chores_by_household ON chores(household_id, next_due);

            -- Distributed by household_id.
            CREATE TABLE completions (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                chore_id text COLLATE "C" NOT NULL,
                chore_name text COLLATE "C" NOT NULL,
                user_id text COLLATE "C" NOT NULL,
                points bigint NOT NULL,
                due_on text COLLATE "C",
                completed_on text COLLATE "C" NOT NULL,
                completed_at bigint NOT NULL,
                note text COLLATE "C"
            );
            CREATE INDEX completions_by_household ON completions(household_id, completed_on, id);

            -- Distributed by household_id.
            CREATE TABLE notes (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                author_id text COLLATE "C" NOT NULL,
                text text COLLATE "C" NOT NULL,
                pinned boolean NOT NULL DEFAULT false,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                photo bytea,
                photo_type text COLLATE "C",
                photo_etag text COLLATE "C"
            );
            CREATE INDEX notes_by_household ON notes(household_id, expires_at);

            -- Distributed by household_id; id orders the feed as SQLite's AUTOINCREMENT does.
            CREATE TABLE activity (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                kind text COLLATE "C" NOT NULL,
                actor_id text COLLATE "C" NOT NULL,
                subject text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL
            );
            CREATE INDEX activity_by_household ON activity(household_id, id);

            -- Distributed by household_id. Amounts are bigint minor units of `currency` (ISO 4217). One bill per
            -- idempotency key and author: two replicas taking the same key at once make one bill, the second insert
            -- failing on this index and answering the first bill.
            CREATE TABLE bills (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                description text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                currency text COLLATE "C" NOT NULL,
                payer_id text COLLATE "C" NOT NULL,
                split_kind text COLLATE "C" NOT NULL,
                created_by text COLLATE "C" NOT NULL,
                idempotency_key text COLLATE "C",
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                trip_id text COLLATE "C"
            );
            CREATE INDEX bills_by_household ON bills(household_id, created_at, id);
            CREATE UNIQUE INDEX bills_by_idempotency_key
                ON bills(household_id, created_by, idempotency_key) WHERE idempotency_key IS NOT NULL;

            -- Distributed by household_id (the bill's; kept here so shares go with their bill).
            CREATE TABLE bill_shares (
                household_id text COLLATE "C" NOT NULL,
                bill_id text COLLATE "C" NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
                user_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL,
                PRIMARY KEY (bill_id, user_id)
            );

            -- Distributed by household_id.
            CREATE TABLE payments (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                from_id text COLLATE "C" NOT NULL,
                to_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                currency text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL
            );
            CREATE INDEX payments_by_household ON payments(household_id, currency);

            -- Distributed by household_id. owner_id NULL: the communal list; otherwise the owner's personal list.
            -- merge_key is the name folded for case and plural. seq orders items as SQLite's rowid does.
            CREATE TABLE grocery_items (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                owner_id text COLLATE "C",
                name text COLLATE "C" NOT NULL,
                merge_key text COLLATE "C" NOT NULL,
                quantity bigint NOT NULL CHECK (quantity > 0),
                note text COLLATE "C",
                visible boolean NOT NULL DEFAULT true,
                created_by text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY
            );
            CREATE INDEX grocery_items_by_household ON grocery_items(household_id, merge_key);

            -- Distributed by household_id. A completed shopping trip; its cost is the bill `bill_id`.
            CREATE TABLE shopping_trips (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                shopper_id text COLLATE "C" NOT NULL,
                total bigint NOT NULL CHECK (total > 0),
                currency text COLLATE "C" NOT NULL,
                bill_id text COLLATE "C" NOT NULL,
                idempotency_key text COLLATE "C",
                receipt bytea,
                receipt_type text COLLATE "C",
                receipt_etag text COLLATE "C",
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL
            );
            CREATE INDEX shopping_trips_by_household ON shopping_trips(household_id, created_at, id);
            CREATE UNIQUE INDEX shopping_trips_by_idempotency_key
                ON shopping_trips(household_id, shopper_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

            -- Distributed by household_id (the trip's). wanted_by: JSON object member id -> quantity they wanted,
            -- kept as the text SQLite keeps.
            CREATE TABLE trip_items (
                household_id text COLLATE "C" NOT NULL,
                trip_id text COLLATE "C" NOT NULL REFERENCES shopping_trips(id) ON DELETE CASCADE,
                position bigint NOT NULL,
                name text COLLATE "C" NOT NULL,
                price bigint,
                communal_quantity bigint NOT NULL,
                wanted_by text COLLATE "C" NOT NULL,
                PRIMARY KEY (trip_id, position)
            );

            -- Distributed by household_id. Each member's net per currency, kept in the same transaction as every
            -- bill, trip and payment write.
            CREATE TABLE member_balances (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                currency text COLLATE "C" NOT NULL,
                user_id text COLLATE "C" NOT NULL,
                net bigint NOT NULL,
                PRIMARY KEY (household_id, currency, user_id)
            );

            -- Distributed by user_id (a user's own, whichever household they are in).
            CREATE TABLE payment_handles (
                user_id text COLLATE "C" PRIMARY KEY,
                venmo text COLLATE "C",
                paypal text COLLATE "C",
                updated_at bigint NOT NULL
            );

            -- Distributed by household_id. The last reminder a creditor sent a debtor (one per 24 hours).
            CREATE TABLE reminders (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                creditor_id text COLLATE "C" NOT NULL,
                debtor_id text COLLATE "C" NOT NULL,
                sent_at bigint NOT NULL,
                PRIMARY KEY (household_id, creditor_id, debtor_id)
            );

            -- Distributed by household_id. A member's month-end reminder, claimed by inserting its row: whichever
            -- replica inserts it sends it, the others find it there.
            CREATE TABLE month_end_reminders_sent (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                month text COLLATE "C" NOT NULL,
                user_id text COLLATE "C" NOT NULL,
                sent_at bigint NOT NULL,
                PRIMARY KEY (household_id, month, user_id)
            );

            -- Distributed by household_id (the bill's). A bill's optional image.
            CREATE TABLE bill_images (
                household_id text COLLATE "C" NOT NULL,
                bill_id text COLLATE "C" PRIMARY KEY REFERENCES bills(id) ON DELETE CASCADE,
                bytes bytea NOT NULL,
                type text COLLATE "C" NOT NULL,
                etag text COLLATE "C" NOT NULL,
                uploaded_by text COLLATE "C" NOT NULL,
                uploaded_at bigint NOT NULL
            );

            -- Distributed by household_id. A member's trip under way and what they ticked off in it.
            CREATE TABLE shopping_trips_current (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                shopper_id text COLLATE "C" NOT NULL,
                started_at bigint NOT NULL,
                PRIMARY KEY (household_id, shopper_id)
            );
            CREATE TABLE shopping_checks (
                household_id text COLLATE "C" NOT NULL,
                shopper_id text COLLATE "C" NOT NULL,
                merge_key text COLLATE "C" NOT NULL,
                item_id text COLLATE "C" NOT NULL,
                name text COLLATE "C" NOT NULL,
                price bigint,
                checked_at bigint NOT NULL,
                PRIMARY KEY (household_id, shopper_id, merge_key),
                FOREIGN KEY (household_id, shopper_id)
                    REFERENCES shopping_trips_current (household_id, shopper_id) ON DELETE CASCADE
            );

            -- Distributed by user_id (a member's own settings, kept with their account).
            CREATE TABLE member_settings (
                user_id text COLLATE "C" PRIMARY KEY,
                reminder_days_before bigint NOT NULL DEFAULT 0,
                reminder_hour bigint NOT NULL DEFAULT 0,
                board_background text COLLATE "C",
                updated_at bigint NOT NULL
            );

            -- The revision triggers (SQLite's v7), so that no write can forget to bump it.
            CREATE FUNCTION bump_household_revision() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    UPDATE households SET revision = revision + 1 WHERE id = OLD.household_id;
                END IF;
                IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.household_id <> OLD.household_id) THEN
                    UPDATE households SET revision = revision + 1 WHERE id = NEW.household_id;
                END IF;
                RETURN NULL;
            END;
            $$;
            CREATE TRIGGER chores_revision AFTER INSERT OR UPDATE OR DELETE ON chores
                FOR EACH ROW EXECUTE FUNCTION bump_household_revision();
            CREATE TRIGGER members_revision AFTER INSERT OR UPDATE OR DELETE ON members
                FOR EACH ROW EXECUTE FUNCTION bump_household_revision();
            CREATE FUNCTION bump_time_zone_revision() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.revision := OLD.revision + 1;
                RETURN NEW;
            END;
            $$;
            CREATE TRIGGER households_revision BEFORE UPDATE OF time_zone ON households
                FOR EACH ROW EXECUTE FUNCTION bump_time_zone_revision()
            """#),
        PostgresMigration(
            "v2: household events and members' answers",
            #"""
            -- Distributed by household_id. Cancelled events stay (cancelled_at set). finishes_at is ends_at, or
            -- starts_at without an end: the lists split upcoming from past by it. reminded_at: the reminder for the
            -- current start was claimed (cleared when the start moves).
            CREATE TABLE household_events (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                creator_id text COLLATE "C" NOT NULL,
                title text COLLATE "C" NOT NULL,
                note text COLLATE "C",
                place text COLLATE "C",
                starts_at bigint NOT NULL,
                ends_at bigint,
                finishes_at bigint NOT NULL,
                remind_minutes_before bigint NOT NULL,
                remind_at bigint NOT NULL,
                reminded_at bigint,
                cancelled_at bigint,
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL
            );
            CREATE INDEX household_events_by_start ON household_events(household_id, starts_at, id);
            -- The reminder job's scan: only reminders still to send.
            CREATE INDEX household_events_to_remind ON household_events(remind_at)
                WHERE reminded_at IS NULL AND cancelled_at IS NULL;

            -- Distributed by household_id.
            CREATE TABLE household_event_answers (
                event_id text COLLATE "C" NOT NULL REFERENCES household_events(id) ON DELETE CASCADE,
                household_id text COLLATE "C" NOT NULL,
                user_id text COLLATE "C" NOT NULL,
                answer text COLLATE "C" NOT NULL,
                answered_at bigint NOT NULL,
                PRIMARY KEY (event_id, user_id)
            )
            """#),
        // Notices and events waiting for the notifications service (ServiceKit's outbox); drained from its head by
        // one replica at a time, so it is not distributed (distribution key, were it: seq).
        OutboxMigrations.postgres,
        PostgresMigration(
            "v3: bill categories",
            #"""
            -- bills stays distributed by household_id. One of BillCategory.all; the bills before categories are
            -- `other`.
            ALTER TABLE bills ADD COLUMN category text COLLATE "C" NOT NULL DEFAULT 'other';
            CREATE INDEX bills_by_category ON bills(household_id, category, created_at, id)
            """#),
        PostgresMigration(
            "v4: chore due reminders",
            #"""
            -- Distributed by household_id. A row per chore and due day whose reminder was claimed (and sent): of the
            -- replicas running the job at once, the one whose insert lands sends it.
            CREATE TABLE chore_reminders_sent (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                chore_id text COLLATE "C" NOT NULL,
                due_on text COLLATE "C" NOT NULL,
                user_id text COLLATE "C" NOT NULL,
                sent_at bigint NOT NULL,
                PRIMARY KEY (household_id, chore_id, due_on)
            );
            -- The reminder job's scan: chores falling due around today.
            CREATE INDEX chores_by_next_due ON chores(next_due) WHERE assignee_id IS NOT NULL
            """#),
        PostgresMigration(
            "v5: recurring bills",
            #"""
            -- Distributed by household_id. A bill to make on each day of a schedule (kind monthly/weekly/everyDays
            -- and its one number); next_on is the next day in the household's zone. split: the request's split
            -- object as JSON.
            CREATE TABLE recurring_bills (
                id text COLLATE "C" PRIMARY KEY,
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                created_by text COLLATE "C" NOT NULL,
                description text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                currency text COLLATE "C" NOT NULL,
                payer_id text COLLATE "C",
                split text COLLATE "C" NOT NULL,
                category text COLLATE "C" NOT NULL,
                schedule_kind text COLLATE "C" NOT NULL,
                schedule_value bigint NOT NULL,
                next_on text COLLATE "C" NOT NULL,
                stopped_at bigint,
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL
            );
            CREATE INDEX recurring_bills_by_household ON recurring_bills(household_id, created_at, id);
            -- The job's scan: only recurring bills still running.
            CREATE INDEX recurring_bills_to_make ON recurring_bills(next_on, id) WHERE stopped_at IS NULL;

            -- Distributed by household_id. A row per recurring bill and day whose bill was made (bill_id NULL when
            -- it could not be: someone it names left): of the replicas running the job at once, the one whose insert
            -- lands makes the bill.
            CREATE TABLE recurring_bill_runs (
                household_id text COLLATE "C" NOT NULL REFERENCES households(id) ON DELETE CASCADE,
                recurring_bill_id text COLLATE "C" NOT NULL,
                day text COLLATE "C" NOT NULL,
                bill_id text COLLATE "C",
                made_at bigint NOT NULL,
                PRIMARY KEY (household_id, recurring_bill_id, day)
            )
            """#),
        PostgresMigration(
            "v6: bills paid by several people",
            #"""
            -- Distributed by household_id (the bill's; kept here so payers go with their bill). What each of several
            -- payers paid of a bill, adding up to its amount. A bill without rows here was paid by its payer_id alone,
            -- as every bill before v6 was: nothing to backfill.
            CREATE TABLE bill_payers (
                household_id text COLLATE "C" NOT NULL,
                bill_id text COLLATE "C" NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
                user_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                PRIMARY KEY (bill_id, user_id)
            )
            """#),
    ]
}
