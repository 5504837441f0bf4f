import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHabitsStore {
    static func listRow(_ db: PostgresSession, _ id: Int64) async throws -> EventListRecord? {
        try await db.first(
            """
            SELECT \(unescaped: EventListRecord.postgresColumns) FROM events e JOIN habits h ON h.id = e.habit_id
            WHERE e.id = \(id)
            """, EventListRecord.init(postgres:))
    }

    func createEvent(_ new: NewEvent, clock: WallClock) async throws -> (event: EventListRecord, created: Bool) {
        guard PostgresText.fits(new.habitID, new.userID) else { throw HabitsError.notFound("The habit") }
        guard PostgresText.fits(new.comment, new.idempotencyKey) else {
            throw HabitsError.invalidField("comment", "must not hold a NUL character.")
        }
        let result = try await write { db in
            // The owner's lock first: a retry with the same key waits for the first to commit, then finds it.
            try await db.lockOwner(new.userID)
            let today = clock.today(inZone: try await Self.timeZone(db, new.userID))
            let now = clock.now.millisecondsSince1970
            let day = (new.day ?? today).description
            let habit = try await Self.habit(db, new.habitID, owner: new.userID)
            if let key = new.idempotencyKey,
                let id = try await db.value(
                    "SELECT id FROM events WHERE user_id = \(new.userID) AND idempotency_key = \(key)", as: Int64.self),
                let existing = try await Self.listRow(db, id)
            {
                return CreatedEvent(event: existing, created: false)
            }
            try EventRules.check(new.day ?? today, weekdays: habit.schedule, start: habit.start, today: today)
            try EventRules.checkValue(new.value, target: habit.targetMilli)
            let taken =
                try await db.value(
                    "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = \(new.habitID) AND day = \(day))",
                    as: Bool.self) ?? false
            guard !taken else { throw HabitsError.eventExists(day: day) }
            var photoType: String?
            if case .set(_, let type) = new.photo { photoType = type }
            guard
                let id = try await db.value(
                    """
                    INSERT INTO events (habit_id, user_id, day, comment, latitude, longitude, photo_type,
                        idempotency_key, created_at, updated_at, value_milli)
                    VALUES (\(new.habitID), \(new.userID), \(day), \(new.comment), \(new.latitude), \(new.longitude),
                        \(photoType), \(new.idempotencyKey), \(now), \(now), \(new.value))
                    RETURNING id
                    """, as: Int64.self)
            else { throw HabitsError.notFound("The event") }
            if case .set(let bytes, _) = new.photo {
                try await db.execute("INSERT INTO photos (event_id, bytes) VALUES (\(id), \(bytes))")
            }
            guard let row = try await Self.listRow(db, id) else { throw HabitsError.notFound("The event") }
            return CreatedEvent(event: row, created: true)
        }
        return (result.event, result.created)
    }

    func event(_ id: Int64) async throws -> EventListRecord {
        guard let row = try await read({ db in try await Self.listRow(db, id) }) else {
            throw HabitsError.notFound("The event")
        }
        return row
    }

    func updateEvent(
        _ id: Int64, owner: String, now: Date, photo: PhotoChange, _ change: @Sendable (inout EventRecord) -> Void
    ) async throws -> EventListRecord {
        guard PostgresText.fits(owner) else { throw HabitsError.notFound("The event") }
        return try await write { db in
            guard
                var event = try await db.first(
                    "SELECT \(unescaped: EventRecord.postgresColumns) FROM events WHERE id = \(id) FOR UPDATE",
                    EventRecord.init(postgres:)),
                event.userId == owner
            else { throw HabitsError.notFound("The event") }
            change(&event)
            if event.valueMilli != nil {
                let habit = try await Self.habit(db, event.habitId, owner: owner)
                try EventRules.checkValue(event.valueMilli, target: habit.targetMilli)
            }
            guard PostgresText.fits(event.comment) else {
                throw HabitsError.invalidField("comment", "must not hold a NUL character.")
            }
            switch photo {
            case .keep: break
            case .remove:
                event.photoType = nil
                try await db.execute("DELETE FROM photos WHERE event_id = \(id)")
            case .set(let bytes, let type):
                event.photoType = type
                try await db.execute(
                    """
                    INSERT INTO photos (event_id, bytes) VALUES (\(id), \(bytes))
                    ON CONFLICT (event_id) DO UPDATE SET bytes = excluded.bytes
                    """)
            }
            try await db.execute(
                """
                UPDATE events SET comment = \(event.comment), latitude = \(event.latitude),
                    longitude = \(event.longitude), photo_type = \(event.photoType),
                    updated_at = \(now.millisecondsSince1970), value_milli = \(event.valueMilli)
                WHERE id = \(id)
                """)
            guard let row = try await Self.listRow(db, id) else { throw HabitsError.notFound("The event") }
            return row
        }
    }

    func deleteEvent(_ id: Int64, owner: String) async throws {
        guard PostgresText.fits(owner) else { throw HabitsError.notFound("The event") }
        try await write { db in
            let deleted = try await db.execute(
                "DELETE FROM events WHERE id = \(id) AND user_id = \(owner) RETURNING 1")
            guard deleted > 0 else { throw HabitsError.notFound("The event") }
        }
    }

    func photo(of event: EventListRecord) async throws -> StoredBytes? {
        guard let type = event.photoType else { return nil }
        let bytes = try await read { db in
            try await db.value("SELECT bytes FROM photos WHERE event_id = \(event.id)", as: Data.self)
        }
        return bytes.map { StoredBytes(bytes: $0, mediaType: type, tag: EntityTag(of: $0)) }
    }
}

/// What ``PostgresHabitsStore/createEvent(_:clock:)``'s transaction answers.
private struct CreatedEvent: Sendable {
    var event: EventListRecord
    var created: Bool
}
