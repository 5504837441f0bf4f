import Foundation
import IdentityService
import NotificationsService
import PlatformKit
import ServiceKit
import SocialService
import Synchronization
import TestSupport
import Testing

/// Pushes the notifications service handed to its delivery, in order; a test can wait for the next one.
final class RecordedPushes: PushDelivery {
    private let state = Mutex<[PushMessage]>([])
    private let arrivals: AsyncStream<PushMessage>
    private let continuation: AsyncStream<PushMessage>.Continuation

    init() {
        (arrivals, continuation) = AsyncStream.makeStream(of: PushMessage.self)
    }

    var all: [PushMessage] { state.withLock { $0 } }

    func send(_ message: PushMessage) async -> PushOutcome {
        state.withLock { $0.append(message) }
        continuation.yield(message)
        return .delivered
    }

    /// The next push to arrive (pushes are sent off the request path).
    func next() async -> PushMessage? {
        var iterator = arrivals.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A stack with the notifications service (pushes recorded, fast heartbeats) and the social service posting
/// its notices to it for real, plus three users.
struct NotificationsWorld {
    let stack: TestStack
    let pushes: RecordedPushes
    let ann: TestUser, bob: TestUser, cat: TestUser
    var api: APIClient { stack.gateway }

    /// With `reportEndedSessions` false, identity does not post ended sessions to notifications, which then learns
    /// of them only from identity's revocation feed (as every replica of it does); `configureIdentity` runs last.
    /// The services named in `postgres` keep their data in PostgreSQL, and `replicas` runs that many of a service on
    /// one database (see ``withTestStack``).
    static func run(
        heartbeat: Duration = .seconds(30), reportEndedSessions: Bool = true,
        postgres: Set<ServiceName> = TestStack.postgresByDefault, replicas: [ServiceName: Int] = [:],
        configureIdentity: @escaping @Sendable (inout IdentityConfiguration) -> Void = { _ in },
        _ body: (NotificationsWorld) async throws -> Void
    ) async throws {
        let pushes = RecordedPushes()
        let socialNotices = LateNoticeSink()
        let notifications = LateServiceURL()
        try await withTestStack(
            services: [
                .notifications: { settings in
                    try await buildNotificationsApplication(
                        NotificationsConfiguration(
                            settings: settings, pushDelivery: pushes, heartbeatInterval: heartbeat))
                },
                .social: { settings in
                    try await buildSocialApplication(SocialConfiguration(settings: settings, noticeSink: socialNotices))
                },
            ],
            postgres: postgres, replicas: replicas,
            configureIdentity: {
                // Identity reports ended sessions, whose devices are forgotten.
                if reportEndedSessions {
                    $0.endedSessionSink = NotificationsEndedSessionSink(
                        address: .late { notifications.url }, token: $0.settings.internalToken,
                        logger: .init(label: "test"))
                }
                configureIdentity(&$0)
            }
        ) { stack in
            notifications.url = stack.serviceURLs[.notifications]!
            let producer = ServiceSettings(
                service: .social, internalToken: stack.internalToken, clock: stack.clock.wallClock)
            socialNotices.connect(
                to: NotificationsNoticeSink(
                    address: ServiceAddress(stack.serviceURLs[.notifications]!), settings: producer,
                    logger: .init(label: "test")))
            try await body(
                NotificationsWorld(
                    stack: stack, pushes: pushes, ann: try await stack.register("ann"),
                    bob: try await stack.register("bob"), cat: try await stack.register("cat")))
        }
    }

    /// Posts a notice the way a producer does: to the internal endpoint, with the service credential.
    @discardableResult
    func notify(
        _ recipients: [TestUser], kind: String = "household.chore_completed", text: String = "Sam took out the trash",
        key: String = UUID().uuidString, replica: String? = nil
    ) async throws -> APIResponse {
        try await internalPost(
            replica: replica, NotificationsPaths.internalNotifications,
            [
                "recipientIds": .array(recipients.map { .string($0.id) }), "kind": .string(kind),
                "text": .string(text), "link": .string("/v1/households/h1/chores"), "producer": .string("household"),
                "idempotencyKey": .string(key),
            ])
    }

    /// Posts a realtime event the way a producer does.
    @discardableResult
    func publish(
        _ recipients: [TestUser], type: String, payload: String, key: String? = nil, producer: String = "messaging",
        replica: String? = nil
    ) async throws -> APIResponse {
        var body: [String: JSONValue] = [
            "recipientIds": .array(recipients.map { .string($0.id) }), "type": .string(type),
            "payload": .string(payload), "producer": .string(producer),
        ]
        if let key { body["idempotencyKey"] = .string(key) }
        return try await internalPost(replica: replica, NotificationsPaths.internalEvents, body)
    }

    /// Posts to the notifications service's internal `path`: to its first replica, or to the one at `replica`.
    func internalPost(replica: String? = nil, _ path: String, _ body: [String: JSONValue], token: String? = nil)
        async throws -> APIResponse
    {
        let client = replica.map { APIClient(baseURL: $0, contract: .platform) } ?? stack.direct(.notifications)
        return try await client.send(
            .POST, path, json: body, headers: [(PlatformHeaders.internalToken, token ?? stack.internalToken)])
    }

    func inbox(_ user: TestUser, query: String = "") async throws -> [WireNotification] {
        let response = try await api.get(NotificationsPaths.notifications + query, token: user.accessToken)
        #expect(response.status == 200)
        return try response.decode(WirePage<WireNotification>.self).items
    }

    func unread(_ user: TestUser) async throws -> Int {
        try await api.get(NotificationsPaths.unreadCount, token: user.accessToken).decode(WireUnreadCount.self).unread
    }

    func stream(_ user: TestUser, lastEventID: String? = nil) async throws -> EventStreamClient {
        try await stream(token: user.accessToken, lastEventID: lastEventID)
    }

    /// The live stream through the gateway, opened with `token`.
    func stream(token: String, lastEventID: String? = nil) async throws -> EventStreamClient {
        try await EventStreamClient.connect(
            api.baseURL + NotificationsPaths.stream, token: token, lastEventID: lastEventID)
    }
}

/// A small JSON value for request bodies that mix types.
enum JSONValue: Encodable, Sendable {
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
