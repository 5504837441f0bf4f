import Foundation
import PlatformKit
import ServiceKit

/// Live events that keep members' open lists current, posted through the notice sink to the notifications service:
/// the controllers say what changed and to whom (``LiveUpdates``). One event per change: each event has its own key,
/// which every retry of its post repeats, so the notifications service passes it on once.
struct HouseholdLiveEvents: Sendable {
    let sink: any NoticeSink

    /// Publishes `type` (e.g. `household.grocery.updated`) with `payload` to `recipients`.
    func publish(_ type: String, _ payload: some Encodable & Sendable, to recipients: [String]) async {
        guard !recipients.isEmpty,
            let event = try? RealtimeEvent(recipients: recipients, type: type, payload: payload)
        else { return }
        await sink.publish(event)
    }
}
