import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The household's calendar: events with a start (and an optional end) that members answer yes, no or maybe to;
/// edited and cancelled by their creator; reminded before the start by ``EventReminders``.
struct EventsController {
    let store: any HouseholdStore
    let live: LiveUpdates
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let path = HouseholdPaths.households + "/:household/events"
        router.post(RouterPath(path), use: create)
        router.get(RouterPath(path), use: list)
        router.get(RouterPath(path + "/:event"), use: show)
        router.patch(RouterPath(path + "/:event"), use: edit)
        router.post(RouterPath(path + "/:event/cancel"), use: cancel)
        router.put(RouterPath(path + "/:event/rsvp"), use: rsvp)
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<EventView> {
        let householdID = try context.parameters.require("household")
        let draft = try await request.decode(as: EventRequests.Create.self, context: context).draft()
        let (stored, _) = try await store.createEvent(
            draft, id: UUID().uuidString.lowercased(), in: householdID, by: context.user.userID, now: clock.now,
            notices: reporting("household.event.created", told: ("household.event_created", "New event"), context))
        return EditedResponse(status: .created, response: EventView(stored))
    }

    /// `?when=upcoming` (the default: not yet finished, soonest first) or `?when=past` (latest first), a page at a
    /// time (`limit`, `cursor`).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<EventView> {
        let past: Bool
        switch request.uri.queryParameters["when"] {
        case nil, "upcoming": past = false
        case "past": past = true
        default: throw HouseholdError.invalidField("when", "must be upcoming or past.")
        }
        let page = try request.pageRequest()
        let cursor = try page.decodeCursorParts(2).map { (try PageCursor.instant($0[0]), $0[1]) }
        let rows = try await store.events(
            of: try context.parameters.require("household"), asMember: context.user.userID, past: past,
            now: clock.now, after: cursor, limit: page.limit + 1)
        return Page(fetched: rows.map(EventView.init), limit: page.limit) {
            [String($0.start.timeIntervalSince1970), $0.id]
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        EventView(
            try await store.event(
                try context.parameters.require("event"), in: try context.parameters.require("household"),
                asMember: context.user.userID))
    }

    /// Changes my event; a moved start re-arms its reminder.
    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        let change = try await request.decode(as: EventRequests.Edit.self, context: context).change()
        let stored = try await store.editEvent(
            try context.parameters.require("event"), in: try context.parameters.require("household"),
            by: context.user.userID, change, now: clock.now, notices: reporting("household.event.updated", context))
        return EventView(stored)
    }

    /// Cancels my event: it stays listed as cancelled, takes no more answers and sends no reminder.
    @Sendable func cancel(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        let (stored, _) = try await store.cancelEvent(
            try context.parameters.require("event"), in: try context.parameters.require("household"),
            by: context.user.userID, now: clock.now,
            notices: reporting("household.event.cancelled", told: ("household.event_cancelled", "Cancelled"), context))
        return EventView(stored)
    }

    /// My answer to "are you coming?": yes, no or maybe (a new answer replaces the last).
    @Sendable func rsvp(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        let input = try await request.decode(as: EventRequests.Answer.self, context: context)
        let stored = try await store.answer(
            try context.parameters.require("event"), in: try context.parameters.require("household"),
            by: context.user.userID, try EventRules.Answer(client: input.answer), now: clock.now,
            notices: reporting("household.event.rsvp", context))
        return EventView(stored)
    }

    /// An event change's live event `type` to every member and, when `told` names one, a notice of `told.kind` to the
    /// others.
    private func reporting(
        _ type: String, told: (kind: String, what: String)? = nil, _ context: AuthenticatedContext
    ) -> ChangeNotices<HouseholdChange<StoredEvent>> {
        let me = context.user.userID
        return live.reporting(
            notices: { change in told.map { Self.told(change, but: me, $0.kind, $0.what) } ?? [] },
            events: { change in
                let stored = change.value
                return LiveUpdates.event(
                    type,
                    .init(
                        householdId: stored.event.householdId, actorId: me, id: stored.event.id,
                        event: EventView(stored)),
                    members: change.members)
            })
    }

    /// A notice to the other members: `what` (New event, Cancelled), the title and the start on the household's clock.
    static func told(_ change: HouseholdChange<StoredEvent>, but actorID: String, _ kind: String, _ what: String)
        -> [Notice]
    {
        let others = LiveUpdates.others(change.members, than: actorID)
        guard !others.isEmpty else { return [] }
        let stored = change.value
        return [
            Notice(
                recipients: others, kind: kind,
                text: EventRules.noticeText(
                    what, title: stored.event.title, start: stored.event.startsAt, timeZone: stored.timeZone),
                link: EventsController.link(stored.event),
                idempotencyKey: "\(kind):\(stored.event.id)")
        ]
    }

    /// The API path of an event, for notices.
    static func link(_ event: EventRecord) -> String {
        HouseholdPaths.households + "/" + event.householdId + "/events/" + event.id
    }
}
