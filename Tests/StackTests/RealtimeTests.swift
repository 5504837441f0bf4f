import Foundation
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// The producers and the notifications service together, over real internal HTTP: what messaging publishes
/// reaches the other member's live stream and inbox through the gateway.
@Suite struct RealtimeTests {
    /// Social, notifications and messaging, messaging's sink posting to notifications over real internal HTTP.
    func withRealtimeStack(_ body: (TestStack) async throws -> Void) async throws {
        let notices = LateNoticeSink()
        let social = LateServiceURL()
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) },
            .notifications: { try await buildNotificationsApplication(NotificationsConfiguration(settings: $0)) },
            .messaging: {
                try await buildMessagingApplication(
                    MessagingConfiguration(
                        settings: $0, noticeSink: notices,
                        socialGraph: SocialGraphClient(address: .late { social.url }, token: $0.internalToken)))
            },
        ]) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            notices.connect(
                to: NotificationsNoticeSink(
                    address: ServiceAddress(try #require(stack.serviceURLs[.notifications])),
                    settings: ServiceSettings(service: .messaging, internalToken: stack.internalToken),
                    logger: .init(label: "test")))
            try await body(stack)
        }
    }

    /// Ann and Bob, friends, and their WeGroup chat.
    func friendsChat(_ stack: TestStack) async throws -> (ann: TestUser, bob: TestUser, conversation: String) {
        let ann = try await stack.register("ann")
        let bob = try await stack.register("bob")
        let api = stack.gateway
        let request = try await api.post(SocialPaths.friendRequests, token: ann.accessToken, json: ["userId": bob.id])
        let requestID = try request.decode(WireFriendRequest.self).id
        _ = try await api.post("\(SocialPaths.friendRequests)/\(requestID)/accept", token: bob.accessToken)
        let direct = try await api.post(
            MessagingPaths.direct, token: ann.accessToken, json: ["userId": bob.id, "product": "wegroup"])
        return (ann, bob, try direct.decode(WireConversation.self).id)
    }

    @Test func aDirectMessageReachesTheOtherMembersStreamAndInbox() async throws {
        try await withRealtimeStack { stack in
            let (ann, bob, conversation) = try await friendsChat(stack)
            let api = stack.gateway

            let bobsStream = try await EventStreamClient.connect(
                api.baseURL + NotificationsPaths.stream, token: bob.accessToken)
            let sent = try await api.post(
                "\(MessagingPaths.conversations)/\(conversation)/messages", token: ann.accessToken,
                json: ["text": "Dinner at eight?"])
            #expect(sent.status == 201)

            var received: [EventStreamClient.Message] = []
            while !received.contains(where: { $0.event == "message.created" }) {
                received.append(try await bobsStream.nextEvent())
            }
            let message = try #require(received.first { $0.event == "message.created" })
            #expect(message.data?.contains("Dinner at eight?") == true)
            let created = try message.decode(WireMessage.self)
            #expect(created.text == "Dinner at eight?")
            #expect(created.conversationId == conversation)
            // and a second message is the next message event: the first one reached the stream once, not twice
            // (an empty 2xx from notifications used to be retried as a failure)
            _ = try await api.post(
                "\(MessagingPaths.conversations)/\(conversation)/messages", token: ann.accessToken,
                json: ["text": "Or nine?"])
            var texts: [String] = []
            while texts.last != "Or nine?" {
                let event = try await bobsStream.nextEvent()
                if event.event == "message.created" { texts.append(try event.decode(WireMessage.self).text) }
            }
            #expect(texts == ["Or nine?"])
            bobsStream.close()

            let inbox = try await api.get(NotificationsPaths.notifications, token: bob.accessToken)
            let kinds = try inbox.decode(WirePage<WireNotification>.self).items.map(\.kind)
            #expect(kinds.contains("messaging.message"))
            // Ann wrote it: nothing of it is in her inbox.
            let annsInbox = try await api.get(NotificationsPaths.notifications, token: ann.accessToken)
            #expect(
                try annsInbox.decode(WirePage<WireNotification>.self).items.contains { $0.kind == "messaging.message" }
                    == false)
        }
    }
    /// Exactly one live event per change for every kind messaging produces: created, edited, deleted and the
    /// reader's marker (the marker goes to the reader's own devices).
    @Test func everyMessagingChangeIsOneLiveEvent() async throws {
        try await withRealtimeStack { stack in
            let (ann, bob, conversation) = try await friendsChat(stack)
            let api = stack.gateway
            let messages = "\(MessagingPaths.conversations)/\(conversation)/messages"
            let bobsStream = try await EventStreamClient.connect(
                api.baseURL + NotificationsPaths.stream, token: bob.accessToken)
            let sent = try await api.post(messages, token: ann.accessToken, json: ["text": "v1"])
            let id = try sent.decode(WireMessage.self).id
            #expect(
                try await api.patch("\(messages)/\(id)", token: ann.accessToken, json: ["text": "v2"]).status == 200)
            #expect(
                try await api.patch("\(messages)/\(id)", token: ann.accessToken, json: ["text": "v3"]).status == 200)
            let read = try await api.post(
                "\(MessagingPaths.conversations)/\(conversation)/read", token: bob.accessToken, json: ["messageId": id])
            #expect(read.status == 200)
            #expect(try await api.delete("\(messages)/\(id)", token: ann.accessToken).status == 204)
            // a closing message marks the end: everything before it arrived by then, in order
            _ = try await api.post(messages, token: ann.accessToken, json: ["text": "end"])
            var events: [String] = []
            while true {
                let event = try await bobsStream.nextEvent()
                guard let type = event.event, type.hasPrefix("message.") || type.hasPrefix("conversation.") else {
                    continue
                }
                if type == "message.created", event.data?.contains("\"end\"") == true { break }
                events.append(type)
            }
            #expect(
                events == [
                    "message.created", "message.edited", "message.edited", "conversation.read", "message.deleted",
                ])
            bobsStream.close()
        }
    }
}
