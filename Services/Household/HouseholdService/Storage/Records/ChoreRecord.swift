import Foundation

/// A row of `chores`: the schedule and assignment in columns, the next occurrence in `nextDue`/`assigneeId`.
struct ChoreRecord: Codable, Sendable {
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
