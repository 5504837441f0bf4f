import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Chores: the catalogue and the schedule (completions are ``CompletionsController``'s).
struct ChoresController {
    let store: any HouseholdStore
    let live: LiveUpdates
    let clock: WallClock
    /// Chore lists as answered, under the household's revision.
    let choreLists: KeptAnswers<ChoreList>

    /// What names a chore list's answer: the household, the status asked for, the day it is there (which chores are
    /// overdue) and the window of the list.
    struct ChoreList: Hashable, Sendable {
        var householdID: String
        var status: ChoreListStatus
        var today: LocalDay
        var window: ShortListWindow
    }

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let chores = HouseholdPaths.households + "/:household/chores"
        router.get(RouterPath(HouseholdPaths.households + "/:household/chore-catalogue"), use: catalogue)
        router.get(RouterPath(chores), use: list)
        router.post(RouterPath(chores), use: create)
        router.patch(RouterPath(chores + "/:chore"), use: update)
        router.delete(RouterPath(chores + "/:chore"), use: delete)
    }

    struct CatalogueEntry: Encodable, Sendable {
        var name: String
        var points: Int
        var custom: Bool
    }

    /// The predefined chores plus the household's own, kept for reuse.
    @Sendable func catalogue(_ request: Request, context: AuthenticatedContext) async throws -> Page<CatalogueEntry> {
        let custom = try await store.customChores(
            of: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(
            of:
                ChoreCatalogue.predefined.map { CatalogueEntry(name: $0.name, points: $0.points, custom: false) }
                + custom.map { CatalogueEntry(name: $0.name, points: $0.points, custom: true) })
    }

    /// The household's chores, soonest due first, with who is next; `?status=pending|done|all` (pending by
    /// default, so a completed one-off chore leaves the list). Answered from `choreLists` while the household has
    /// not changed since the list was read (the list is every member's home screen).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let householdID = try context.parameters.require("household")
        let status = try ChoreListStatus(query: request.uri.queryParameters["status"])
        let window = try request.shortListWindow()
        let me = context.user.userID
        let (revision, timeZone) = try await store.choreListRevision(of: householdID, asMember: me)
        let kept = ChoreList(
            householdID: householdID, status: status, today: clock.today(inZone: timeZone), window: window)
        if let body = choreLists.body(for: kept, revision: revision) {
            return PlatformResponseEncoder.response(json: body)
        }
        let (household, members, chores, readAt) = try await store.chores(of: householdID, asMember: me)
        let today = clock.today(inZone: household.timeZone)
        let memberIDs = members.map(\.userId)
        let page = window.page(
            of: chores.compactMap { status.shows($0.nextDue) ? ChoreView($0, members: memberIDs, today: today) : nil })
        let body = ByteBuffer(bytes: try PlatformJSONWriter.encode(page))
        choreLists.keep(
            body, for: ChoreList(householdID: householdID, status: status, today: today, window: window),
            revision: readAt)
        return PlatformResponseEncoder.response(json: body)
    }

    struct ChoreRequest: Decodable {
        var name: String?
        var points: Int?
        var schedule: ScheduleBody?
        /// The first due day (`YYYY-MM-DD`), today by default.
        var startOn: LocalDay?
        var assignment: AssignmentBody?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<ChoreView> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: ChoreRequest.self, context: context)
        guard let nameText = input.name else { throw HouseholdError.invalidField("name", "is required.") }
        let name = try Validate.text(nameText, field: "name", max: 60)
        let points = try ChoreRules.points(
            input.points ?? ChoreCatalogue.predefined.first { $0.name == name }?.points ?? 1)
        let schedule = try (input.schedule ?? ScheduleBody(kind: "once")).schedule()
        let (id, now) = (UUID().uuidString.lowercased(), clock.now)
        let me = context.user.userID
        let (chore, members, today) = try await store.createChore(
            in: householdID, by: me, clock: clock,
            notices: live.reporting(events: { Self.saved("household.chore.created", $0, by: me) })
        ) { members, today in
            let assignment = try (input.assignment ?? AssignmentBody(kind: "rotating")).assignment(members: members)
            let start = input.startOn ?? today
            try ChoreRules.checkStart(start, today: today)
            var chore = ChoreRecord(
                id: id, householdId: householdID, name: name, points: points, scheduleKind: "once",
                assignmentKind: "rotating",
                assigneeId: assignment.next(members: members, current: nil, recentPoints: [:]),
                nextDue: schedule.firstDue(onOrAfter: start).description, createdAt: now)
            chore.set(schedule)
            chore.set(assignment)
            return chore
        }
        return EditedResponse(status: .created, response: ChoreView(chore, members: members, today: today))
    }

    /// Every member's open list shows the chore as saved.
    static func saved(_ type: String, _ change: HouseholdChange<ChoreSaved>, by actorID: String) -> [RealtimeEvent] {
        let (chore, members, today) = change.value
        return LiveUpdates.event(
            type,
            .init(
                householdId: chore.householdId, actorId: actorID, id: chore.id,
                chore: ChoreView(chore, members: members, today: today)),
            members: change.members)
    }

    /// Changes the given parts of a chore; a new schedule restarts from `startOn` (or today).
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> ChoreView {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: ChoreRequest.self, context: context)
        let name = try input.name.map { try Validate.text($0, field: "name", max: 60) }
        let points = try input.points.map(ChoreRules.points)
        let schedule = try input.schedule.map { try $0.schedule() }
        let me = context.user.userID
        let (chore, members, today) = try await store.updateChore(
            try context.parameters.require("chore"), in: householdID, by: me, clock: clock,
            notices: live.reporting(events: { Self.saved("household.chore.updated", $0, by: me) })
        ) { chore, members, today in
            if let name { chore.name = name }
            if let points { chore.points = points }
            if let schedule {
                chore.set(schedule)
                chore.nextDue = schedule.firstDue(onOrAfter: input.startOn ?? today).description
            }
            if let assignment = try input.assignment?.assignment(members: members) {
                chore.set(assignment)
                chore.assigneeId = assignment.next(members: members, current: nil, recentPoints: [:])
            }
        }
        return ChoreView(chore, members: members, today: today)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let (choreID, householdID) = (
            try context.parameters.require("chore"), try context.parameters.require("household")
        )
        let me = context.user.userID
        try await store.deleteChore(
            choreID, in: householdID, by: me, now: clock.now,
            notices: live.deletion(
                "household.chore.deleted", in: householdID, by: me, id: { (chore: ChoreRecord) in chore.id }))
        return .noContent
    }
}
