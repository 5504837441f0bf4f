import Foundation
import PlatformKit
import ServiceKit

/// The notices and live events of the controllers' changes, reported by the store's write (``ChangeNotices``): built
/// from what the store stored and the members it read in the same transaction, so through the outbox they commit
/// with the change (or not at all), and any other sink gets them once it committed. One event per change: each has
/// its own key, which every retry of its post repeats, so the notifications service passes it on once.
struct LiveUpdates: Sendable {
    let sink: any NoticeSink

    /// What changed: the thing itself as its list shows it, or only its id when it is gone.
    struct Change: Encodable, Sendable {
        var householdId: String
        var actorId: String
        var id: String
        var item: GroceriesController.ItemView?
        var chore: ChoreView?
        var completion: CompletionView?
        var note: NoteView?
        var tripItem: ShoppingController.CheckedItemView?
        var event: EventView?
    }

    /// A change's `notices` and live `events`, built from the stored change and its household's members.
    func reporting<Value: Sendable>(
        notices: @escaping @Sendable (HouseholdChange<Value>) -> [Notice] = { _ in [] },
        events: @escaping @Sendable (HouseholdChange<Value>) -> [RealtimeEvent] = { _ in [] }
    ) -> ChangeNotices<HouseholdChange<Value>> {
        ChangeNotices(sink: sink, notices: notices, events: events)
    }

    /// A deletion's live event `type` to every member, naming what is gone by its `id`.
    func deletion<Value: Sendable>(
        _ type: String, in householdID: String, by actorID: String, id: @escaping @Sendable (Value) -> String
    ) -> ChangeNotices<HouseholdChange<Value>> {
        reporting(events: { change in
            Self.event(
                type, .init(householdId: householdID, actorId: actorID, id: id(change.value)), members: change.members)
        })
    }

    /// `type` (e.g. `household.grocery.updated`) with `change` to the members `audience` names; none when that is no
    /// one.
    static func event(
        _ type: String, _ change: Change, to audience: LiveAudience = .everyone, members: [String]
    ) -> [RealtimeEvent] {
        let recipients = audience.recipients(members: members, actor: change.actorId)
        guard !recipients.isEmpty, let event = try? RealtimeEvent(recipients: recipients, type: type, payload: change)
        else { return [] }
        return [event]
    }

    /// The members but `actor`: who a member's own change notifies.
    static func others(_ members: [String], than actor: String) -> [String] {
        members.filter { $0 != actor }
    }
}
