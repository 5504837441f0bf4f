import Foundation
import GRDB
import HouseholdService
import Logging
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// Notices leave the request path: household, messaging and social keep them in their outboxes and deliver them
/// once the notifications service answers, each once.
@Suite struct OutboxTests {
    /// A stack whose household, messaging and social services post to a notifications service on a port chosen
    /// in advance, so that it can stop and start again where they look for it.
    static func run(_ body: (TestStack) async throws -> Void) async throws {
        let port = try await TestStack.freePort()
        let notificationsURL = ServiceAddress("http://127.0.0.1:\(port)")
        let social = LateServiceURL()
        let messaging = LateServiceURL()
        try await withTestStack(
            services: [
                .notifications: { settings in
                    try await buildNotificationsApplication(
                        NotificationsConfiguration(settings: settings, pushDelivery: RecordedPushes()))
                },
                .household: { settings in
                    try await buildHouseholdApplication(
                        HouseholdConfiguration(
                            settings: settings, notificationsURL: notificationsURL,
                            socialGraph: HouseholdWorld.NobodyBlocked()))
                },
                .messaging: { settings in
                    try await buildMessagingApplication(
                        MessagingConfiguration(
                            settings: settings, notificationsURL: notificationsURL,
                            socialGraph: SocialGraphClient(address: .late { social.url }, token: settings.internalToken)
                        ))
                },
                .social: { settings in
                    try await buildSocialApplication(
                        SocialConfiguration(
                            settings: settings, notificationsURL: notificationsURL,
                            messagingURL: .late { messaging.url }))
                },
            ],
            ports: [.notifications: port]
        ) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            messaging.url = try #require(stack.serviceURLs[.messaging])
            try await body(stack)
        }
    }

    func kinds(_ user: TestUser, _ stack: TestStack) async throws -> [String] {
        let response = try await stack.gateway.get(NotificationsPaths.notifications, token: user.accessToken)
        guard response.status == 200 else { return [] }
        return try response.decode(WirePage<WireNotification>.self).items.map(\.kind).sorted()
    }

    @Test func noticesWrittenWhileNotificationsIsDownArriveOnceItIsBackEachOnce() async throws {
        try await Self.run { stack in
            // given: ann and bob share a household and are friends, cat is neither; their notices so far delivered
            let api = stack.gateway
            let ann = try await stack.register("ann")
            let bob = try await stack.register("bob")
            let cat = try await stack.register("cat")
            // bob's app keeps a live stream open and, when it drops, reconnects with the last event id it saw.
            let first = try await EventStreamClient.connect(
                api.baseURL + NotificationsPaths.stream, token: bob.accessToken)
            defer { first.close() }
            let created = try await api.post(
                HouseholdPaths.households, token: ann.accessToken, json: ["name": "Flat 4", "timeZone": "UTC"])
            let household = try created.decode(WireHousehold.self).id
            let invitation = try await api.post(
                "\(HouseholdPaths.households)/\(household)/invitations", token: ann.accessToken,
                json: ["username": "bob"])
            let invitationID = try invitation.decode(WireInvitation.self).id
            _ = try await api.post(
                "\(HouseholdPaths.households)/invitations/\(invitationID)/accept", token: bob.accessToken)
            let request = try await api.post(
                SocialPaths.friendRequests, token: ann.accessToken, json: ["userId": bob.id])
            let requestID = try request.decode(WireFriendRequest.self).id
            _ = try await api.post("\(SocialPaths.friendRequests)/\(requestID)/accept", token: bob.accessToken)
            let direct = try await api.post(
                MessagingPaths.direct, token: ann.accessToken, json: ["userId": bob.id, "product": "wegroup"])
            let conversation = try direct.decode(WireConversation.self).id
            let before = ["household.invitation", "social.friend_request"]
            // Time passes meanwhile: a post that failed under load is retried once its back-off ends.
            let settled = try await eventually {
                stack.clock.advance(by: 0.1)
                return try await kinds(bob, stack) == before
            }
            let delivered = try await kinds(bob, stack)
            #expect(settled, "\(delivered)")
            var lastEventID: String?
            while let event = try? await first.nextEvent(within: .seconds(1)) { lastEventID = event.id ?? lastEventID }
            #expect(lastEventID != nil)

            // when: notifications stops, and a bill, a message and a friend request are made
            await stack.stop("notifications")
            let bill = try await api.post(
                "\(HouseholdPaths.households)/\(household)/bills", token: ann.accessToken,
                json: BillBody(amount: 1_000))
            let message = try await api.post(
                "\(MessagingPaths.conversations)/\(conversation)/messages", token: ann.accessToken,
                json: ["text": "Pizza tonight?"])
            let friendRequest = try await api.post(
                SocialPaths.friendRequests, token: cat.accessToken, json: ["userId": bob.id])
            // then: each answers at once
            #expect(bill.status == 201, "\(bill.text)")
            #expect(message.status == 201, "\(message.text)")
            #expect(friendRequest.status == 201, "\(friendRequest.text)")

            // when: social restarts with its notice still waiting, notifications comes back, bob's stream resumes
            // from the last event it saw, and the back-off (on the stack's clock) runs out
            try await stack.restart("social")
            try await stack.restart("notifications")
            let stream = try await EventStreamClient.connect(
                api.baseURL + NotificationsPaths.stream, token: bob.accessToken, lastEventID: lastEventID)
            #expect(stream.status == 200)
            defer { stream.close() }
            stack.clock.advance(by: 60)

            // then: every notice is in bob's inbox once, and the message's event reaches his stream once
            let after = (before + ["household.bill_added", "messaging.message", "social.friend_request"]).sorted()
            #expect(try await eventually { try await kinds(bob, stack) == after })
            #expect(try await eventually { try await outboxesAreEmpty(stack) })
            // The stream carries a `notification.created` per new notice and the message's `message.created`.
            var events: [String] = []
            while let event = try? await stream.nextEvent(within: .seconds(1)) { events.append(event.event ?? "") }
            #expect(events.filter { $0 == "message.created" }.count == 1, "\(events)")
            #expect(events.filter { $0 == "notification.created" }.count == 3, "\(events)")
            #expect(try await kinds(bob, stack) == after)
        }
    }

    struct BillBody: Encodable, Sendable {
        struct Split: Encodable, Sendable { var kind = "equal" }
        var description = "Groceries"
        var amount: Int
        var currency = "EUR"
        var split = Split()
    }

    /// Whether the three producers' outboxes are empty, read from their databases.
    func outboxesAreEmpty(_ stack: TestStack) async throws -> Bool {
        for service in [ServiceName.household, .messaging, .social] {
            if try await outboxCount(service, stack) != 0 { return false }
        }
        return true
    }

    func outboxCount(_ service: ServiceName, _ stack: TestStack) async throws -> Int {
        switch stack.databases[service] {
        case .postgres(let url):
            let database = try await PostgresServiceDatabase.open(url, migrations: [], logger: Logger(label: "test"))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.service.run() }
                defer { group.cancelAll() }
                return try await PostgresOutbox(database: database).count()
            }
        default:
            var readOnly = Configuration()
            readOnly.readonly = true
            let path = stack.dataDirectory.appendingPathComponent("\(service.rawValue).sqlite").path
            return try await SQLiteOutbox(writer: try DatabaseQueue(path: path, configuration: readOnly)).count()
        }
    }
}
