import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Completing chores, and the history of completions.
struct CompletionsController {
    let store: any HouseholdStore
    let notices: any NoticeSink
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
        let (completion, chore, members, today) = try await store.complete(
            try context.parameters.require("chore"), in: householdID, by: context.user.userID, note: note, clock: clock)
        let others = members.filter { $0 != context.user.userID }
        if !others.isEmpty {
            await notices.publish(
                Notice(
                    recipients: others, kind: "household.chore_completed", text: "\(chore.name) was done.",
                    link: HouseholdPaths.households + "/" + householdID + "/chores"))
        }
        let result = CompletionResult(
            completion: CompletionView(completion), chore: ChoreView(chore, members: members, today: today))
        await live.publish(
            "household.chore.completed",
            .init(
                householdId: householdID, actorId: context.user.userID, id: chore.id, chore: result.chore,
                completion: result.completion))
        return EditedResponse(status: .created, response: result)
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
