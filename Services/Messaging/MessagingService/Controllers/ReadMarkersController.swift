import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Each member's read marker in a conversation or one of its topics, and the unread counts it leaves.
struct ReadMarkersController {
    let store: any MessagingStore
    let events: MessageEvents

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(MessagingPaths.conversations + "/:conversation/read"), use: markRead)
    }

    struct ReadRequest: Decodable {
        /// Everything up to and including this message is read.
        var messageId: Int64
        /// Only within this topic (reading a topic view).
        var topicId: Int64?
    }

    /// Moves my read marker forward (never back) and tells my other devices.
    @Sendable func markRead(_ request: Request, context: AuthenticatedContext) async throws -> ReadView {
        let conversationID = try context.parameters.require("conversation")
        let input = try await request.decode(as: ReadRequest.self, context: context)
        let (lastReadID, unread) = try await store.markRead(
            conversationID, upTo: input.messageId, topic: input.topicId, by: context.user.userID)
        let view = ReadView(
            conversationId: conversationID, topicId: input.topicId, lastReadId: lastReadID, unreadCount: unread.total,
            topicUnreadCount: input.topicId.map { unread.byTopic[$0] ?? 0 })
        await events.read(view, by: context.user.userID)
        return view
    }
}
