import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Topics inside a group: create, list with unread counts, rename, resolve, follow or mute.
struct TopicsController {
    let store: any MessagingStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let topics = MessagingPaths.conversations + "/:conversation/topics"
        router.get(RouterPath(topics), use: list)
        router.post(RouterPath(topics), use: create)
        router.get(RouterPath(topics + "/:topic"), use: show)
        router.patch(RouterPath(topics + "/:topic"), use: update)
        router.put(RouterPath(topics + "/:topic/policy"), use: setPolicy)
        router.put(RouterPath(topics + "/:topic/pin"), use: pin)
        router.delete(RouterPath(topics + "/:topic/pin"), use: unpin)
    }

    /// A group's topics a page at a time: those I pinned first, then latest message first.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<TopicView> {
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: TopicCursor.self)
        let topics = try await store.topics(
            in: try context.parameters.require("conversation"), asMember: context.user.userID,
            after: cursor.map { TopicOrder(pinned: $0.pinned ?? false, lastMessageID: $0.lastMessageId, id: $0.id) },
            limit: page.limit + 1)
        return Page(fetched: topics.map(TopicView.init), limit: page.limit) {
            TopicCursor(lastMessageId: $0.lastMessageId ?? 0, id: $0.id, pinned: $0.pinned)
        }
    }

    struct TopicCursor: Codable {
        var lastMessageId: Int64
        var id: Int64
        /// Absent in cursors from before pinning: those continue among the unpinned.
        var pinned: Bool?
    }

    struct CreateRequest: Decodable {
        var name: String
    }

    private static func name(_ value: String) throws -> String {
        var name = try Validate.text(value, field: "name", max: MessageText.maximumTopicLength)
        if name.hasPrefix("#") { name = try Validate.text(String(name.dropFirst()), field: "name", max: 60) }
        return name
    }

    /// Creates a topic; its creator follows it.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<TopicView> {
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let topic = try await store.createTopic(
            try Self.name(input.name), in: try context.parameters.require("conversation"), by: context.user.userID,
            now: clock.now)
        return EditedResponse(status: .created, response: TopicView(topic))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> TopicView {
        TopicView(
            try await store.topic(
                try context.parameters.id("topic", "The topic"), in: try context.parameters.require("conversation"),
                asMember: context.user.userID))
    }

    struct UpdateRequest: Decodable {
        var name: String?
        var resolved: Bool?
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> TopicView {
        let conversationID = try context.parameters.require("conversation")
        let topicID = try context.parameters.id("topic", "The topic")
        let input = try await request.decode(as: UpdateRequest.self, context: context)
        guard input.name != nil || input.resolved != nil else {
            throw Problem.badRequest("nothing_to_change", "Send a new name, resolved, or both.")
        }
        try await store.updateTopic(
            topicID, in: conversationID, by: context.user.userID, name: try input.name.map(Self.name),
            resolved: input.resolved)
        return TopicView(try await store.topic(topicID, in: conversationID, asMember: context.user.userID))
    }

    /// Pins a topic to the top of my list of the group's topics (mine only, as Zulip's "pin to top").
    @Sendable func pin(_ request: Request, context: AuthenticatedContext) async throws -> TopicView {
        try await setPinned(true, context)
    }

    @Sendable func unpin(_ request: Request, context: AuthenticatedContext) async throws -> TopicView {
        try await setPinned(false, context)
    }

    private func setPinned(_ pinned: Bool, _ context: AuthenticatedContext) async throws -> TopicView {
        let conversationID = try context.parameters.require("conversation")
        let topicID = try context.parameters.id("topic", "The topic")
        try await store.setTopicPinned(pinned, topic: topicID, in: conversationID, for: context.user.userID)
        return TopicView(try await store.topic(topicID, in: conversationID, asMember: context.user.userID))
    }

    struct PolicyRequest: Decodable {
        var policy: String
    }

    /// Follows (`followed`), mutes (`muted`) or resets (`inherit`) a topic for the caller.
    @Sendable func setPolicy(_ request: Request, context: AuthenticatedContext) async throws -> TopicView {
        let conversationID = try context.parameters.require("conversation")
        let topicID = try context.parameters.id("topic", "The topic")
        let input = try await request.decode(as: PolicyRequest.self, context: context)
        guard let policy = TopicPolicy(rawValue: input.policy) else {
            throw Problem.invalidField("policy", "must be followed, muted or inherit.")
        }
        try await store.setTopicPolicy(policy, topic: topicID, in: conversationID, for: context.user.userID)
        return TopicView(try await store.topic(topicID, in: conversationID, asMember: context.user.userID))
    }
}
