import Foundation
import GRDB
import ServiceKit

/// A row of `chores`: the schedule and assignment in columns, the next occurrence in `nextDue`/`assigneeId`.
struct ChoreRecord: HouseholdTable {
    static let databaseTableName = "chores"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let name = Column("name")
        static let points = Column("points")
        static let scheduleKind = Column("schedule_kind")
        static let scheduleEvery = Column("schedule_every")
        static let scheduleWeekdays = Column("schedule_weekdays")
        static let scheduleDay = Column("schedule_day")
        static let assignmentKind = Column("assignment_kind")
        static let assignmentFixed = Column("assignment_fixed")
        static let assignmentOrder = Column("assignment_order")
        static let assigneeId = Column("assignee_id")
        static let nextDue = Column("next_due")
        static let createdAt = Column("created_at")
    }

    var id: String
    var householdId: String
    var name: String
    var points: Int
    var scheduleKind: String
    var scheduleEvery: Int?
    var scheduleWeekdays: String?
    var scheduleDay: Int?
    var assignmentKind: String
    var assignmentFixed: String?
    var assignmentOrder: String?
    var assigneeId: String?
    var nextDue: String?
    var createdAt: Date

    var schedule: ChoreSchedule {
        switch scheduleKind {
        case "everyDays": .everyDays(scheduleEvery ?? 1)
        case "weekly": .weekly(Set((scheduleWeekdays ?? "").split(separator: ",").compactMap { Int($0) }))
        case "monthly": .monthly(day: scheduleDay ?? 1)
        default: .once
        }
    }

    var assignment: ChoreAssignment {
        switch assignmentKind {
        case "fixed": .fixed(assignmentFixed ?? "")
        case "rotating": .rotating((assignmentOrder ?? "").split(separator: ",").map(String.init))
        default: .leastPoints
        }
    }

    mutating func set(_ schedule: ChoreSchedule) {
        (scheduleEvery, scheduleWeekdays, scheduleDay) = (nil, nil, nil)
        switch schedule {
        case .once: scheduleKind = "once"
        case .everyDays(let days): (scheduleKind, scheduleEvery) = ("everyDays", days)
        case .weekly(let days):
            (scheduleKind, scheduleWeekdays) = ("weekly", days.sorted().map(String.init).joined(separator: ","))
        case .monthly(let day): (scheduleKind, scheduleDay) = ("monthly", day)
        }
    }

    mutating func set(_ assignment: ChoreAssignment) {
        (assignmentFixed, assignmentOrder) = (nil, nil)
        assignmentKind = assignment.kind
        switch assignment {
        case .fixed(let member): assignmentFixed = member
        case .rotating(let order): assignmentOrder = order.joined(separator: ",")
        case .leastPoints: break
        }
    }
}

extension ChoreRecord {
    /// Reads the columns by name: the chore list decodes every chore of the household, and the `Codable` path
    /// through ``SnakeCaseColumns`` was the largest part of that read.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        householdId = try row.decode(forColumn: Columns.householdId)
        name = try row.decode(forColumn: Columns.name)
        points = try row.decode(forColumn: Columns.points)
        scheduleKind = try row.decode(forColumn: Columns.scheduleKind)
        scheduleEvery = try row.decode(forColumn: Columns.scheduleEvery)
        scheduleWeekdays = try row.decode(forColumn: Columns.scheduleWeekdays)
        scheduleDay = try row.decode(forColumn: Columns.scheduleDay)
        assignmentKind = try row.decode(forColumn: Columns.assignmentKind)
        assignmentFixed = try row.decode(forColumn: Columns.assignmentFixed)
        assignmentOrder = try row.decode(forColumn: Columns.assignmentOrder)
        assigneeId = try row.decode(forColumn: Columns.assigneeId)
        nextDue = try row.decode(forColumn: Columns.nextDue)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
    }
}
