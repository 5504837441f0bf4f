import Foundation
import PlatformKit
import ServiceKit

/// Live events that keep every member's open lists current: a grocery, chore, note, event or shopping-trip change reaches
/// the live stream of every member, the actor's other devices included. One event per change: each event has its
/// own key, which every retry of its post repeats, so the notifications service passes it on once.
struct HouseholdLiveEvents {
    let store: any HouseholdStore
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

    /// Who an event goes to.
    enum Audience {
        /// Every member, the actor's other devices included.
        case everyone
        /// The actor alone (a personal item hidden from the household list).
        case actor
        /// Every member but the actor (an item just hidden leaves their lists, not the actor's).
        case othersThanActor
    }

    /// Publishes `type` (e.g. `household.grocery.updated`) with `change` to `audience`.
    func publish(_ type: String, _ change: Change, to audience: Audience = .everyone) async {
        let recipients: [String]
        if audience == .actor {
            recipients = [change.actorId]
        } else {
            guard let members = try? await store.members(of: change.householdId, asMember: change.actorId) else {
                return
            }
            recipients = members.map(\.userId).filter { audience == .everyone || $0 != change.actorId }
        }
        guard !recipients.isEmpty else { return }
        guard let event = try? RealtimeEvent(recipients: recipients, type: type, payload: change) else { return }
        await sink.publish(event)
    }
}
