import Foundation
import Hummingbird
import PlatformKit
import ServiceKit
import Synchronization

/// "Someone is typing": a short-lived live event to the conversation's other members, never stored and never an
/// inbox entry.
struct TypingController {
    let store: any MessagingStore
    let events: MessageEvents
    let clock: WallClock
    let gate = Gate()

    /// The throttle's state, shared by every request this replica serves.
    final class Gate: Sendable {
        let throttle = Mutex(TypingThrottle())
    }

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(MessagingPaths.conversations + "/:conversation/typing"), use: typing)
    }

    /// Tells the other members I am typing; more than one a member and conversation per 3 s is accepted and dropped.
    @Sendable func typing(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let conversationID = try context.parameters.require("conversation")
        let me = context.user.userID
        let members = try await store.memberIDs(of: conversationID, asMember: me)
        let key = TypingThrottle.Key(userID: me, conversationID: conversationID)
        let now = clock.now
        if gate.throttle.withLock({ $0.admit(key, now: now) }) {
            await events.typing(in: conversationID, by: me, to: members.filter { $0 != me })
        }
        return .accepted
    }
}
