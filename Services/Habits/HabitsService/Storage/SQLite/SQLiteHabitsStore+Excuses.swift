import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHabitsStore {
    func setSkip(_ habitID: String, owner: String, day: LocalDay, skipped: Bool) async throws {
        try await write { db in
            _ = try Self.habit(db, habitID, owner: owner)
            if skipped {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO skips (habit_id, user_id, day) VALUES (?, ?, ?)",
                    arguments: [habitID, owner, day.description])
            } else {
                try db.execute(
                    sql: "DELETE FROM skips WHERE habit_id = ? AND day = ?", arguments: [habitID, day.description])
            }
        }
    }

    func skips(of habitID: String, owner: String) async throws -> [LocalDay] {
        try await read { db in
            _ = try Self.habit(db, habitID, owner: owner)
            return try Self.excuses(db, of: habitID, since: "").skips
        }
    }

    func addPause(_ pause: PauseRecord, owner: String) async throws -> PauseRecord {
        try await write { db in
            _ = try Self.habit(db, pause.habitId, owner: owner)
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM pauses WHERE habit_id = ?", arguments: [pause.habitId]) ?? 0
            guard count < Excuses.maximumPauses else {
                throw HabitsError.invalidField("from", "a habit has at most \(Excuses.maximumPauses) pauses.")
            }
            try db.execute(
                sql: "INSERT INTO pauses (habit_id, user_id, from_day, to_day) VALUES (?, ?, ?, ?)",
                arguments: [pause.habitId, owner, pause.from, pause.to])
            var added = pause
            added.id = db.lastInsertedRowID
            return added
        }
    }

    func pauses(of habitID: String, owner: String) async throws -> [PauseRecord] {
        try await read { db in
            _ = try Self.habit(db, habitID, owner: owner)
            return try Row.fetchAll(
                db, sql: "SELECT id, from_day, to_day FROM pauses WHERE habit_id = ? ORDER BY from_day, id",
                arguments: [habitID]
            ).map { PauseRecord(id: $0[0], habitId: habitID, from: $0[1], to: $0[2]) }
        }
    }

    func deletePause(_ id: Int64, of habitID: String, owner: String) async throws {
        try await write { db in
            _ = try Self.habit(db, habitID, owner: owner)
            try db.execute(sql: "DELETE FROM pauses WHERE id = ? AND habit_id = ?", arguments: [id, habitID])
            guard db.changesCount > 0 else { throw HabitsError.notFound("The pause") }
        }
    }
}
