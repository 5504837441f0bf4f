import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Completing chores, and the history of completions.
struct CompletionsController {
    let store: any HouseholdStore
    let live: LiveUpdates
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(HouseholdPaths.households + "/:household/chores/:chore/completions"), use: complete)
        router.get(RouterPath(HouseholdPaths.households + "/:household/completions"), use: history)
    }

    struct CompleteRequest: Decodable {
        var note: String?
    }

    struct CompletionResult: ResponseEncodable, Sendable {
        var completion: CompletionView
        var chore: ChoreView
    }

    /// Marks the current occurrence done, records it, schedules the next one and tells the others.
    @Sendable func complete(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<CompletionResult>
    {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: CompleteRequest.self, context: context)
        let note = try Validate.optionalText(input.note, field: "note", max: 200)
        let me = context.user.userID
        let done = try await store.complete(
            try context.parameters.require("chore"), in: householdID, by: me, note: note, clock: clock,
            notices: live.reporting(
                notices: { Self.completedNotices($0, by: me) }, events: { Self.completedEvents($0, by: me) }))
        return EditedResponse(status: .created, response: Self.result(done))
    }

    static func result(_ done: ChoreCompleted) -> CompletionResult {
        let (completion, chore, members, today) = done
        return CompletionResult(
            completion: CompletionView(completion), chore: ChoreView(chore, members: members, today: today))
    }

    /// The other members are told the chore was done.
    static func completedNotices(_ change: HouseholdChange<ChoreCompleted>, by actorID: String) -> [Notice] {
        let others = LiveUpdates.others(change.members, than: actorID)
        guard !others.isEmpty else { return [] }
        let (_, chore, _, _) = change.value
        return [
            Notice(
                recipients: others, kind: "household.chore_completed", text: "\(chore.name) was done.",
                link: HouseholdPaths.households + "/" + chore.householdId + "/chores")
        ]
    }

    /// Every member's open list shows the completion and the chore as it now stands.
    static func completedEvents(_ change: HouseholdChange<ChoreCompleted>, by actorID: String) -> [RealtimeEvent] {
        let result = Self.result(change.value)
        let (_, chore, _, _) = change.value
        return LiveUpdates.event(
            "household.chore.completed",
            .init(
                householdId: chore.householdId, actorId: actorID, id: chore.id, chore: result.chore,
                completion: result.completion),
            members: change.members)
    }

    /// Completion history, newest first, by member, chore and day range.
    @Sendable func history(_ request: Request, context: AuthenticatedContext) async throws -> Page<CompletionView> {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        let rows = try await store.completions(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            member: query["member"].map(String.init), choreID: query["chore"].map(String.init),
            from: try HouseholdInput.day(query["from"], field: "from"),
            to: try HouseholdInput.day(query["to"], field: "to"),
            after: try HouseholdInput.completionCursor(page), limit: page.limit + 1)
        return Page(fetched: rows.map(CompletionView.init), limit: page.limit) {
            [$0.completedOn, String($0.completedAt.timeIntervalSince1970), $0.id]
        }
    }
}
