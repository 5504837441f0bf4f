import Foundation
import GRDB
import ServiceKit

/// What every record of this service is.
protocol HouseholdRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {}

/// A row of `households`.
struct HouseholdRow: HouseholdRecord {
    static let databaseTableName = "households"
    var id: String
    var name: String
    var timeZone: String
    var createdBy: String
    var noteLifetimeDays: Int
    var createdAt: Date
}

/// A row of `members`.
struct MemberRow: HouseholdRecord {
    static let databaseTableName = "members"
    var householdId: String
    var userId: String
    var joinedAt: Date
}

/// A row of `invitations`.
struct InvitationRow: HouseholdRecord {
    static let databaseTableName = "invitations"
    var id: String
    var householdId: String
    var inviterId: String
    var inviteeId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?
}

/// A row of `chores`: the schedule and assignment in columns, the next occurrence in `nextDue`/`assigneeId`.
struct ChoreRow: HouseholdRecord {
    static let databaseTableName = "chores"
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

/// A row of `completions`: the history, kept when a chore is edited or deleted.
struct CompletionRow: HouseholdRecord {
    static let databaseTableName = "completions"
    var id: String
    var householdId: String
    var choreId: String
    var choreName: String
    var userId: String
    var points: Int
    var dueOn: String?
    var completedOn: String
    var completedAt: Date
    var note: String?
}

/// A row of `notes` (the photo columns are read only by the photo route).
struct NoteRow: HouseholdRecord {
    static let databaseTableName = "notes"
    var id: String
    var householdId: String
    var authorId: String
    var text: String
    var pinned: Bool
    var createdAt: Date
    var expiresAt: Date
    var photoType: String?
    var photoEtag: String?
}

/// A row of `activity`.
struct ActivityRow: HouseholdRecord {
    static let databaseTableName = "activity"
    var id: Int64?
    var householdId: String
    var kind: String
    var actorId: String
    var subject: String
    var createdAt: Date
}
