import Foundation
import PlatformKit
import ServiceKit

/// Live events that keep every member's open lists current: a grocery, chore, note or shopping-trip change reaches
/// the live stream of every member, the actor's other devices included. One event per change: each event has its
/// own key, which every retry of its post repeats, so the notifications service passes it on once.
struct HouseholdLiveEvents {
    let database: HouseholdDatabase
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
        var tripItem: TripsController.CheckedItemView?
    }

    /// Publishes `type` (e.g. `household.grocery.updated`) with `change` to the household's members, or to the
    /// actor alone when `onlyActor` (a personal item hidden from the household list).
    func publish(_ type: String, _ change: Change, onlyActor: Bool = false) async {
        let recipients: [String]
        if onlyActor {
            recipients = [change.actorId]
        } else {
            guard let members = try? await database.members(of: change.householdId, asMember: change.actorId) else {
                return
            }
            recipients = members.map(\.userId)
        }
        guard let event = try? RealtimeEvent(recipients: recipients, type: type, payload: change) else { return }
        await sink.publish(event)
    }
}
