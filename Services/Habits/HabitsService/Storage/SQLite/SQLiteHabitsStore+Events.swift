import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHabitsStore {
    /// The columns of an ``EventListRecord``, from `events e` joined with `habits h`.
    static let listSelection = "e.*, h.title AS habit_title"
    static let listColumns = SQL(sql: listSelection)

    static func listRow(_ db: Database, _ id: Int64) throws -> EventListRecord? {
        try EventListRecord.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT \(listSelection) FROM events e JOIN habits h ON h.id = e.habit_id WHERE e.id = ?"
            ), arguments: [id])
    }

    func createEvent(_ new: NewEvent, clock: WallClock) async throws -> (event: EventListRecord, created: Bool) {
        try await write { db in
            let today = clock.today(inZone: try Self.timeZone(db, new.userID))
            let now = clock.now
            var event = EventRecord(
                id: nil, habitId: new.habitID, userId: new.userID, day: (new.day ?? today).description,
                comment: new.comment, latitude: new.latitude, longitude: new.longitude, photoType: nil,
                idempotencyKey: new.idempotencyKey, createdAt: now, updatedAt: now, valueMilli: new.value)
            let photo = new.photo
            let habit = try Self.habit(db, event.habitId, owner: event.userId)
            if let key = event.idempotencyKey,
                let id = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM events WHERE user_id = ? AND idempotency_key = ?"),
                    arguments: [event.userId, key]),
                let existing = try Self.listRow(db, id)
            {
                return (existing, false)
            }
            try EventRules.check(new.day ?? today, weekdays: habit.schedule, start: habit.start, today: today)
            try EventRules.checkValue(new.value, target: habit.targetMilli)
            let taken = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = ? AND day = ?)"),
                arguments: [event.habitId, event.day])
            guard taken != true else { throw HabitsError.eventExists(day: event.day) }
            if case .set(_, let type) = photo { event.photoType = type }
            try event.insert(db)
            let id = db.lastInsertedRowID
            if case .set(let bytes, _) = photo {
                try db.execute(sql: "INSERT INTO photos (event_id, bytes) VALUES (?, ?)", arguments: [id, bytes])
            }
            guard let row = try Self.listRow(db, id) else { throw HabitsError.notFound("The event") }
            return (row, true)
        }
    }

    func event(_ id: Int64) async throws -> EventListRecord {
        guard let row = try await read({ db in try Self.listRow(db, id) }) else {
            throw HabitsError.notFound("The event")
        }
        return row
    }

    func updateEvent(
        _ id: Int64, owner: String, now: Date, photo: PhotoChange, _ change: @Sendable (inout EventRecord) -> Void
    ) async throws -> EventListRecord {
        try await write { db in
            guard var event = try EventRecord.fetchOne(db, key: id), event.userId == owner else {
                throw HabitsError.notFound("The event")
            }
            change(&event)
            if event.valueMilli != nil {
                try EventRules.checkValue(
                    event.valueMilli, target: try Self.habit(db, event.habitId, owner: owner).targetMilli)
            }
            switch photo {
            case .keep: break
            case .remove:
                event.photoType = nil
                try db.execute(sql: "DELETE FROM photos WHERE event_id = ?", arguments: [id])
            case .set(let bytes, let type):
                event.photoType = type
                try db.execute(
                    sql: "INSERT OR REPLACE INTO photos (event_id, bytes) VALUES (?, ?)", arguments: [id, bytes])
            }
            event.updatedAt = now
            try event.update(db)
            guard let row = try Self.listRow(db, id) else { throw HabitsError.notFound("The event") }
            return row
        }
    }

    func deleteEvent(_ id: Int64, owner: String) async throws {
        try await write { db in
            guard let event = try EventRecord.fetchOne(db, key: id), event.userId == owner else {
                throw HabitsError.notFound("The event")
            }
            _ = try event.delete(db)
        }
    }

    func photo(of event: EventListRecord) async throws -> StoredBytes? {
        guard let type = event.photoType else { return nil }
        let bytes = try await read { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT bytes FROM photos WHERE event_id = ?"), arguments: [event.id])
        }
        return bytes.map { StoredBytes(bytes: $0, mediaType: type, tag: EntityTag(of: $0)) }
    }
}
