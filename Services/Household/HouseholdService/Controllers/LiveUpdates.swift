import Foundation
import PlatformKit
import ServiceKit

/// The live events of the controllers' changes: what changed as the lists show it, sent to the members the
/// ``LiveAudience`` names (read from the store) through ``HouseholdLiveEvents``.
struct LiveUpdates: Sendable {
    let store: any HouseholdStore
    let events: HouseholdLiveEvents

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

    /// Publishes `type` (e.g. `household.grocery.updated`) with `change` to `audience`; nothing when the members
    /// cannot be read (the change itself stands).
    func publish(_ type: String, _ change: Change, to audience: LiveAudience = .everyone) async {
        var members: [String] = []
        if audience.needsMembers {
            guard let found = try? await store.members(of: change.householdId, asMember: change.actorId) else {
                return
            }
            members = found.map(\.userId)
        }
        await events.publish(type, change, to: audience.recipients(members: members, actor: change.actorId))
    }
}
