import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

struct MemberView: ResponseEncodable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?
    var joinedAt: Date
}

struct HouseholdView: ResponseEncodable, Sendable {
    var id: String
    var name: String
    var timeZone: String
    var createdBy: String
    var noteLifetimeDays: Int
    var members: [MemberView]
    var createdAt: Date

    init(_ household: HouseholdRecord, members: [MemberRecord], profiles: [DirectoryUser]) {
        let byID = Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        id = household.id
        name = household.name
        timeZone = household.timeZone
        createdBy = household.createdBy
        noteLifetimeDays = household.noteLifetimeDays
        createdAt = household.createdAt
        self.members = members.map {
            MemberView(
                userId: $0.userId, username: byID[$0.userId]?.username, displayName: byID[$0.userId]?.displayName ?? "",
                avatarUrl: byID[$0.userId]?.avatarUrl, joinedAt: $0.joinedAt)
        }
    }
}

struct InvitationView: ResponseEncodable, Sendable {
    var id: String
    var householdId: String
    var householdName: String
    var inviterId: String
    var inviteeId: String
    var status: String
    var createdAt: Date
}

struct ScheduleBody: Codable, Sendable {
    var kind: String
    var every: Int?
    var weekdays: [Int]?
    var dayOfMonth: Int?

    init(kind: String, every: Int? = nil, weekdays: [Int]? = nil, dayOfMonth: Int? = nil) {
        self.kind = kind
        self.every = every
        self.weekdays = weekdays
        self.dayOfMonth = dayOfMonth
    }

    init(_ schedule: ChoreSchedule) {
        switch schedule {
        case .once: self.init(kind: "once")
        case .everyDays(let days): self.init(kind: "everyDays", every: days)
        case .weekly(let days): self.init(kind: "weekly", weekdays: days.sorted())
        case .monthly(let day): self.init(kind: "monthly", dayOfMonth: day)
        }
    }

    func schedule() throws -> ChoreSchedule {
        try ChoreSchedule.make(kind: kind, every: every, weekdays: weekdays, dayOfMonth: dayOfMonth)
    }
}

struct AssignmentBody: Codable, Sendable {
    var kind: String
    var assignee: String?
    var order: [String]?

    init(kind: String, assignee: String? = nil, order: [String]? = nil) {
        self.kind = kind
        self.assignee = assignee
        self.order = order
    }

    init(_ assignment: ChoreAssignment, members: [String]) {
        switch assignment {
        case .fixed(let member): self.init(kind: "fixed", assignee: member)
        case .rotating(let order):
            self.init(kind: "rotating", order: ChoreAssignment.turnOrder(order, members: members))
        case .leastPoints: self.init(kind: "leastPoints")
        }
    }

    func assignment(members: [String]) throws -> ChoreAssignment {
        try ChoreAssignment.make(kind: kind, assignee: assignee, order: order, members: members)
    }
}

struct ChoreView: ResponseEncodable, Sendable {
    var id: String
    var name: String
    var points: Int
    var schedule: ScheduleBody
    var assignment: AssignmentBody
    var assigneeId: String?
    /// The next due day in the household's time zone; `null` once a one-off chore is done.
    var nextDue: String?
    var overdue: Bool

    init(_ chore: ChoreRecord, members: [String], today: LocalDay) {
        id = chore.id
        name = chore.name
        points = chore.points
        schedule = ScheduleBody(chore.schedule)
        assignment = AssignmentBody(chore.assignment, members: members)
        assigneeId = chore.assigneeId
        nextDue = chore.nextDue
        overdue = chore.nextDue.flatMap(LocalDay.init).map { $0 < today } ?? false
    }
}

struct CompletionView: ResponseEncodable, Sendable {
    var id: String
    var choreId: String
    var choreName: String
    var userId: String
    var points: Int
    var dueOn: String?
    var completedOn: String
    var completedAt: Date
    var note: String?

    init(_ row: CompletionRecord) {
        (id, choreId, choreName, userId, points) = (row.id, row.choreId, row.choreName, row.userId, row.points)
        (dueOn, completedOn, completedAt, note) = (row.dueOn, row.completedOn, row.completedAt, row.note)
    }
}

struct NoteView: ResponseEncodable, Sendable {
    var id: String
    var authorId: String
    var text: String
    var pinned: Bool
    var createdAt: Date
    var expiresAt: Date
    var photoUrl: String?

    init(_ note: NoteRecord) {
        (id, authorId, text, pinned, createdAt, expiresAt) = (
            note.id, note.authorId, note.text, note.pinned, note.createdAt, note.expiresAt
        )
        photoUrl = note.photoEtag.map { _ in "/v1/households/\(note.householdId)/notes/\(note.id)/photo" }
    }
}

struct ActivityView: ResponseEncodable, Sendable {
    var id: Int64
    var kind: String
    var actorId: String
    var subject: String
    var createdAt: Date
}
