import Foundation
import MessagingService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// A stack with the social and messaging services, messaging's notices and live events recorded, and five
/// users: ann is friends with bob, cat and dan; bob with dan; eve is nobody's friend.
struct MessagingWorld {
    let stack: TestStack
    let notices: RecordedNotices
    let ann: TestUser, bob: TestUser, cat: TestUser, dan: TestUser, eve: TestUser
    var api: APIClient { stack.gateway }

    /// Runs `body` in a fresh world; `postgres` names the services kept on PostgreSQL, `onMessagingSettings` hears the
    /// settings the messaging service was built with (to start a second replica of it).
    static func run(
        postgres: Set<ServiceName> = TestStack.postgresByDefault,
        onMessagingSettings: @escaping @Sendable (ServiceSettings) -> Void = { _ in },
        _ body: (MessagingWorld) async throws -> Void
    ) async throws {
        let notices = RecordedNotices()
        let social = LateServiceURL()
        let messaging = LateServiceURL()
        try await withTestStack(
            services: [
                .social: { settings in
                    try await buildSocialApplication(
                        SocialConfiguration(settings: settings, messagingURL: .late { messaging.url }))
                },
                .messaging: { settings in
                    onMessagingSettings(settings)
                    return try await buildMessagingApplication(
                        MessagingConfiguration(
                            settings: settings, noticeSink: notices,
                            socialGraph: SocialGraphClient(address: .late { social.url }, token: settings.internalToken)
                        ))
                },
            ], postgres: postgres
        ) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            messaging.url = try #require(stack.serviceURLs[.messaging])
            let world = MessagingWorld(
                stack: stack, notices: notices, ann: try await stack.register("ann"),
                bob: try await stack.register("bob"), cat: try await stack.register("cat"),
                dan: try await stack.register("dan"), eve: try await stack.register("eve"))
            for (a, b) in [
                (world.ann, world.bob), (world.ann, world.cat), (world.ann, world.dan), (world.bob, world.dan),
            ] {
                try await world.befriend(a, b)
            }
            try await body(world)
        }
    }

    func befriend(_ a: TestUser, _ b: TestUser) async throws {
        let request = try await api.post(SocialPaths.friendRequests, token: a.accessToken, json: ["userId": b.id])
        let id = try request.decode(WireFriendRequest.self).id
        #expect(try await api.post("\(SocialPaths.friendRequests)/\(id)/accept", token: b.accessToken).status == 200)
    }

    func path(_ conversation: String, _ rest: String = "") -> String {
        "\(MessagingPaths.conversations)/\(conversation)\(rest)"
    }

    /// Opens the direct conversation between two users and returns its id.
    func direct(_ a: TestUser, _ b: TestUser, product: String = "wegroup") async throws -> String {
        let response = try await api.post(
            MessagingPaths.direct, token: a.accessToken, json: ["userId": b.id, "product": product])
        #expect([200, 201].contains(response.status), "\(response.text)")
        return try response.decode(WireConversation.self).id
    }

    /// Creates a group of `owner` and `members` and returns its id.
    func group(_ owner: TestUser, _ name: String = "Weekend", with members: [TestUser]) async throws -> String {
        let response = try await api.post(
            MessagingPaths.groups, token: owner.accessToken, json: GroupBody(name: name, memberIds: members.map(\.id)))
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WireConversation.self).id
    }

    struct GroupBody: Encodable, Sendable {
        var name: String
        var memberIds: [String]
        var product = "wegroup"
    }

    struct MessageBody: Encodable, Sendable {
        var text: String
        var topicId: Int? = nil
        var topic: String? = nil
    }

    func send(
        _ user: TestUser, _ conversation: String, _ text: String, topicId: Int? = nil, topic: String? = nil,
        key: String? = nil
    ) async throws -> APIResponse {
        try await api.send(
            .POST, path(conversation, "/messages"), token: user.accessToken,
            json: MessageBody(text: text, topicId: topicId, topic: topic),
            headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// Sends and returns the new message's id.
    @discardableResult
    func message(_ user: TestUser, _ conversation: String, _ text: String, topicId: Int? = nil) async throws -> Int {
        let response = try await send(user, conversation, text, topicId: topicId)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WireMessage.self).id
    }

    /// The texts of a page of messages.
    func texts(_ response: APIResponse) throws -> [String] {
        try messages(response).map(\.text)
    }

    /// The messages of a page of messages.
    func messages(_ response: APIResponse) throws -> [WireMessage] {
        try response.decode(WireMessagePage.self).items
    }

    /// The conversations of a list (a page, or the groups shared with a friend).
    func conversations(_ response: APIResponse) throws -> [WireConversation] {
        try response.decode(WireItems<WireConversation>.self).items
    }

    /// The topics of a group.
    func topics(_ response: APIResponse) throws -> [WireTopic] {
        try response.decode(WireItems<WireTopic>.self).items
    }

    /// The hits of a page of search results.
    func hits(_ response: APIResponse) throws -> [WireSearchHit] {
        try response.decode(WirePage<WireSearchHit>.self).items
    }
}
