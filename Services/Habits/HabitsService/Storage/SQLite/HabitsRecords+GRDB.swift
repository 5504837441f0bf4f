import Foundation
import GRDB
import ServiceKit

// The records as GRDB reads and writes them (a row of one table, its columns the snake_case of the properties): only
// the SQLite store knows these conformances.

extension HabitRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "habits"

    enum Columns {
        static let id = Column("id")
        static let userId = Column("user_id")
        static let title = Column("title")
        static let reason = Column("reason")
        static let weekdays = Column("weekdays")
        static let startDate = Column("start_date")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
        static let targetMilli = Column("target_milli")
        static let unit = Column("unit")
        static let reminderMinute = Column("reminder_minute")
        static let archivedAt = Column("archived_at")
        static let sortOrder = Column("sort_order")
    }

    /// Reads the columns by name: today's list and every list of habits decode these, and the `Codable` path
    /// through ``SnakeCaseColumns`` costs several times more.
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: Columns.id), userId: try row.decode(forColumn: Columns.userId),
            title: try row.decode(forColumn: Columns.title), reason: try row.decode(forColumn: Columns.reason),
            weekdays: try row.decode(forColumn: Columns.weekdays),
            startDate: try row.decode(forColumn: Columns.startDate),
            createdAt: try row.decodeDate(forColumn: Columns.createdAt),
            updatedAt: try row.decodeDate(forColumn: Columns.updatedAt),
            targetMilli: try row.decode(forColumn: Columns.targetMilli), unit: try row.decode(forColumn: Columns.unit),
            reminderMinute: try row.decode(forColumn: Columns.reminderMinute),
            archivedAt: try row.decodeDateIfPresent(forColumn: Columns.archivedAt),
            sortOrder: try row.decode(forColumn: Columns.sortOrder))
    }
}

extension EventRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "events"

    enum Columns {
        static let id = Column("id")
        static let habitId = Column("habit_id")
        static let userId = Column("user_id")
        static let day = Column("day")
        static let comment = Column("comment")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let photoType = Column("photo_type")
        static let idempotencyKey = Column("idempotency_key")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }
}

extension EventListRecord: FetchableRecord, EncodableRecord, SnakeCaseColumns {
    enum Columns {
        static let id = Column("id")
        static let habitId = Column("habit_id")
        static let habitTitle = Column("habit_title")
        static let userId = Column("user_id")
        static let day = Column("day")
        static let comment = Column("comment")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let photoType = Column("photo_type")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }
}

extension PreferenceRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "preferences"

    enum Columns {
        static let userId = Column("user_id")
        static let timeZone = Column("time_zone")
    }
}
