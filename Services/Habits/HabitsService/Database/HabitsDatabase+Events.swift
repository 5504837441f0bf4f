import Foundation
import GRDB
import PlatformKit

/// What to do with an event's photo on a change.
enum PhotoChange: Sendable {
    case keep
    case remove
    case set(Data, type: String)
}

extension HabitsDatabase {
    static let listColumns: SQL = "e.*, h.title AS habit_title"

    static func listRow(_ db: Database, _ id: Int64) throws -> EventListRow? {
        try EventListRow.fetchOne(
            db,
            SQLRequest(
                literal: "SELECT \(listColumns) FROM events e JOIN habits h ON h.id = e.habit_id WHERE e.id = \(id)"))
    }

    /// Records an event for my habit after `validate` accepted the habit; a retry with the same
    /// idempotency key returns the first event (`created` false) instead of a second one.
    func createEvent(
        _ event: EventRow, photo: PhotoChange, validate: @Sendable (HabitRow) throws -> Void
    ) async throws -> (event: EventListRow, created: Bool) {
        try await writer.write { db in
            let habit = try Self.habit(db, event.habitId, owner: event.userId)
            if let key = event.idempotencyKey,
                let id = try Int64.fetchOne(
                    db, sql: "SELECT id FROM events WHERE user_id = ? AND idempotency_key = ?",
                    arguments: [event.userId, key]),
                let existing = try Self.listRow(db, id)
            {
                return (existing, false)
            }
            try validate(habit)
            let taken = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = ? AND day = ?)",
                arguments: [event.habitId, event.day])
            guard taken != true else {
                throw Problem.conflict("event_exists", "This habit already has an event on \(event.day).")
            }
            var event = event
            if case .set(_, let type) = photo { event.photoType = type }
            try event.insert(db)
            let id = db.lastInsertedRowID
            if case .set(let bytes, _) = photo {
                try db.execute(sql: "INSERT INTO photos (event_id, bytes) VALUES (?, ?)", arguments: [id, bytes])
            }
            guard let row = try Self.listRow(db, id) else { throw Problem.notFound("The event") }
            return (row, true)
        }
    }

    /// One event, for its owner or for `mayView` (a follower); 404 for anyone else.
    func event(_ id: Int64) async throws -> EventListRow {
        guard let row = try await writer.read({ db in try Self.listRow(db, id) }) else {
            throw Problem.notFound("The event")
        }
        return row
    }

    /// Edits my event (comment, location, photo); the day stays: it is what the event is for.
    func updateEvent(
        _ id: Int64, owner: String, now: Date, photo: PhotoChange, _ change: @Sendable (inout EventRow) -> Void
    ) async throws -> EventListRow {
        try await writer.write { db in
            guard var event = try EventRow.fetchOne(db, key: id), event.userId == owner else {
                throw Problem.notFound("The event")
            }
            change(&event)
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
            guard let row = try Self.listRow(db, id) else { throw Problem.notFound("The event") }
            return row
        }
    }

    func deleteEvent(_ id: Int64, owner: String) async throws {
        try await writer.write { db in
            guard let event = try EventRow.fetchOne(db, key: id), event.userId == owner else {
                throw Problem.notFound("The event")
            }
            _ = try event.delete(db)
        }
    }

    func photo(of eventID: Int64) async throws -> Data? {
        try await writer.read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM photos WHERE event_id = ?", arguments: [eventID])
        }
    }
}
