import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// What other services post: notices for the inbox (and push), realtime events for live streams, and the
/// sessions identity ended (their devices are pushed to no more, their live streams end).
struct InternalNotificationsController {
    let store: any NotificationsStore
    let pushes: PushDispatcher
    let hub: EventHub
    let clock: WallClock

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.post(RouterPath(NotificationsPaths.internalNotifications), use: postNotice)
        router.post(RouterPath(NotificationsPaths.internalEvents), use: postEvent)
        router.post(RouterPath(NotificationsPaths.internalDeliveries), use: postDeliveries)
        router.post(RouterPath(NotificationsPaths.internalEndedSessions), use: sessionsEnded)
    }

    struct EndedSessions: Decodable {
        var userId: String
        var sessionIds: [String]
    }

    struct ForgottenDevices: ResponseEncodable {
        var removed: Int
    }

    /// A signed-out phone must not show the account's notices: its device token goes with its session.
    @Sendable func sessionsEnded(_ request: Request, context: ServiceRequestContext) async throws -> ForgottenDevices {
        let input = try await request.decode(as: EndedSessions.self, context: context)
        guard (1...64).contains(input.userId.count), input.sessionIds.count <= 1_000 else {
            throw Problem.badRequest("invalid_sessions", "Name one user and at most 1,000 sessions.")
        }
        // The revocation feed ends these streams on every replica; this replica need not wait for it, and ends
        // them before identity answers the request that ended the sessions.
        hub.endSessions(input.sessionIds)
        return ForgottenDevices(
            removed: try await store.removeDevices(of: input.userId, sessions: input.sessionIds))
    }

    struct NoticeRequest: Decodable {
        var recipientIds: [String]
        var kind: String
        var text: String
        var link: String
        var producer: String
        var idempotencyKey: String
    }

    struct DeliveryReport: ResponseEncodable {
        /// Recipients who got a new notice.
        var created: Int
        /// Recipients who already had it from an earlier post with the same key.
        var duplicates: Int
    }

    @Sendable func postNotice(_ request: Request, context: ServiceRequestContext) async throws -> DeliveryReport {
        try await deliver(try await request.decode(as: NoticeRequest.self, context: context))
    }

    private func deliver(_ input: NoticeRequest) async throws -> DeliveryReport {
        let result = try await store.deliver(try Self.notice(input), now: clock.now)
        result.pushes.forEach(pushes.enqueue)
        return DeliveryReport(created: result.created, duplicates: result.duplicates)
    }

    private static func notice(_ input: NoticeRequest) throws -> IncomingNotice {
        IncomingNotice(
            recipientIDs: try NoticeValidation.recipients(input.recipientIds),
            kind: try NoticeValidation.dottedName(input.kind, field: "kind"),
            text: try Validate.text(input.text, field: "text", max: 500),
            link: try NoticeValidation.link(input.link),
            producer: try NoticeValidation.dottedName(input.producer, field: "producer"),
            idempotencyKey: try Validate.text(input.idempotencyKey, field: "idempotencyKey", max: 200))
    }

    struct EventRequest: Decodable {
        var recipientIds: [String]
        var type: String
        /// A JSON object, as a string (see `NotificationsNoticeSink`).
        var payload: String
        /// The producing service; a repeated `idempotencyKey` is dropped per producer.
        var producer: String?
        /// Derived from what happened (`message.created:<id>`): a second post with it is accepted and dropped.
        var idempotencyKey: String?
    }

    @Sendable func postEvent(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        try await append(try await request.decode(as: EventRequest.self, context: context))
        return .accepted
    }

    private func append(_ input: EventRequest) async throws {
        // A repeated key is accepted and dropped: the producer's retry reaches the live stream once.
        try await store.append(try Self.event(input), now: clock.now)
    }

    private static func event(_ input: EventRequest) throws -> IncomingEvent {
        var event = IncomingEvent(
            recipientIDs: try NoticeValidation.recipients(input.recipientIds),
            type: try NoticeValidation.dottedName(input.type, field: "type"),
            payload: try NoticeValidation.payload(input.payload))
        if let key = input.idempotencyKey {
            event.idempotencyKey = try Validate.text(key, field: "idempotencyKey", max: 200)
            event.producer = try NoticeValidation.dottedName(input.producer ?? "unknown", field: "producer")
        }
        return event
    }

    /// The head of a producer's outbox in one post (``DeliveryBatch``): each entry checked as its own route would
    /// check it (a refused one is answered alone), the others stored in order in one transaction, and each entry's
    /// status answered. When they cannot be stored, the batch is answered up to the first of them only, and the rest
    /// wait for the producer's next attempt.
    @Sendable func postDeliveries(_ request: Request, context: ServiceRequestContext) async throws
        -> DeliveryBatch.Reply
    {
        let batch = try await request.decode(as: DeliveryBatch.self, context: context)
        guard batch.entries.count <= DeliveryBatch.maximumEntries else {
            throw Problem.invalidField("entries", "must hold at most \(DeliveryBatch.maximumEntries) entries.")
        }
        var results: [DeliveryBatch.Outcome?] = []
        var deliveries: [Delivery] = []
        for entry in batch.entries {
            do {
                switch try entry.get() {
                case .notice(let notice): deliveries.append(.notice(try Self.notice(notice)))
                case .event(let event): deliveries.append(.event(try Self.event(event)))
                }
                results.append(nil)
            } catch {
                guard let refusal = DeliveryBatch.refusal(error) else { break }
                results.append(refusal)
            }
        }
        guard !deliveries.isEmpty else { return DeliveryBatch.Reply(results: results.compactMap(\.self)) }
        let outcomes: [DeliveryOutcome]
        do {
            outcomes = try await store.accept(deliveries, now: clock.now)
        } catch {
            // The producer retries the rest; the cause is only seen here.
            context.logger.error(
                "storing a batch of deliveries failed",
                metadata: ["entries": "\(deliveries.count)", "error": "\(error)"])
            return DeliveryBatch.Reply(results: Array(results.prefix { $0 != nil }.compactMap(\.self)))
        }
        var stored = outcomes.makeIterator()
        return DeliveryBatch.Reply(
            results: results.map { refusal in
                if let refusal { return refusal }
                switch stored.next() {
                case .notice(_, _, let targets):
                    targets.forEach(pushes.enqueue)
                    return DeliveryBatch.Outcome(status: 201)
                case .event, nil: return DeliveryBatch.Outcome(status: 202)
                }
            })
    }
}
