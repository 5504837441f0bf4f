import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Emoji reactions on messages: each member adds or removes their own, and every member sees the change live.
struct ReactionsController {
    let store: any MessagingStore
    let events: MessageEvents
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let reaction = MessagingPaths.conversations + "/:conversation/messages/:message/reactions/:emoji"
        router.put(RouterPath(reaction), use: add)
        router.delete(RouterPath(reaction), use: remove)
    }

    /// Adds my reaction; adding it again changes nothing.
    @Sendable func add(_ request: Request, context: AuthenticatedContext) async throws -> ReactionsView {
        try await react(adding: true, context)
    }

    /// Takes my reaction back; taking back one I did not give changes nothing.
    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> ReactionsView {
        try await react(adding: false, context)
    }

    private func react(adding: Bool, _ context: AuthenticatedContext) async throws -> ReactionsView {
        let conversationID = try context.parameters.require("conversation")
        let messageID = try context.parameters.id("message", "The message")
        let emoji = try Reactions.emoji(try context.parameters.require("emoji"))
        let me = context.user.userID
        let reaction = MessageEvents.Reaction(
            conversationId: conversationID, messageId: messageID, emoji: emoji, userId: me)
        let change = try await store.react(
            emoji, to: messageID, in: conversationID, by: me, adding: adding, now: clock.now,
            notices: events.reaction(reaction, added: adding))
        return ReactionsView(
            conversationId: conversationID, messageId: messageID, reactions: change.reactions.map(ReactionView.init))
    }
}
