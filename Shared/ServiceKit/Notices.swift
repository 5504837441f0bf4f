import Foundation
import Logging
import PlatformKit

/// A notice for users ("Sam completed Take out the trash"), for the notifications service's inbox.
public struct Notice: Sendable, Equatable {
    public var recipients: [String]
    /// A stable kind, e.g. `social.friend_request`, that users can switch off.
    public var kind: String
    public var text: String
    /// The API path of the thing the notice is about.
    public var link: String
    /// The notifications service keeps one notice per key and recipient, so a retried post never duplicates.
    /// Producers pass a key derived from what happened (`chore-completion:<id>`) when they can.
    public var idempotencyKey: String

    /// Creates a notice.
    public init(recipients: [String], kind: String, text: String, link: String, idempotencyKey: String? = nil) {
        self.recipients = recipients
        self.kind = kind
        self.text = text
        self.link = link
        self.idempotencyKey = idempotencyKey ?? UUID().uuidString
    }
}

/// A realtime event for users' live streams (a new message, an edit, a read marker). Unlike a notice it is
/// not kept in the inbox: it only reaches clients that are connected or reconnect soon after.
public struct RealtimeEvent: Sendable, Equatable {
    public var recipients: [String]
    /// A stable type, e.g. `message.created`, sent as the stream's `event:` field.
    public var type: String
    /// The event's JSON object, sent as the stream's `data:` field.
    public var payload: Data
    /// The notifications service drops a second event with the same key from the same producer, so a retried
    /// post reaches the stream once. Producers pass a key derived from what happened (`message.created:<id>`).
    public var idempotencyKey: String

    /// Creates an event whose payload is `payload` encoded the platform's way (camelCase, ISO 8601 dates);
    /// without a key, each event gets its own (retries of this value are still dropped).
    public init(recipients: [String], type: String, payload: some Encodable, idempotencyKey: String? = nil) throws {
        self.recipients = recipients
        self.type = type
        self.payload = try PlatformJSON.encoder.encode(payload)
        self.idempotencyKey = idempotencyKey ?? "\(type):\(UUID().uuidString)"
    }
}

/// Where a service's notices and realtime events go.
public protocol NoticeSink: Sendable {
    /// Hands the notice on; never fails the caller's request.
    func publish(_ notice: Notice) async
    /// Hands the realtime event on; never fails the caller's request.
    func publish(_ event: RealtimeEvent) async
    /// Records notices in a store write's own transaction, when this sink is the service's outbox; else `nil`.
    var recorder: OutboxRecorder? { get }
}

extension NoticeSink {
    /// Sinks that have no live stream drop realtime events.
    public func publish(_ event: RealtimeEvent) async {}

    /// Sinks other than the outbox are handed notices after the change.
    public var recorder: OutboxRecorder? { nil }
}

/// Posts notices to the notifications service's internal endpoint; a failure is logged and never fails
/// the user's request (the notice is lost, the change the user made is not).
public struct NotificationsNoticeSink: NoticeSink {
    private let client: InternalClient
    private let producer: ServiceName
    private let logger: Logger

    /// A sink posting to the notifications service at `address`.
    public init(address: ServiceAddress, settings: ServiceSettings, logger: Logger) {
        self.client = InternalClient(service: .notifications, address: address, token: settings.internalToken)
        self.producer = settings.service
        self.logger = logger
    }

    public func publish(_ notice: Notice) async {
        await post(
            NotificationsPaths.internalNotifications, NoticePostBody(notice, producer: producer), what: notice.kind)
    }

    public func publish(_ event: RealtimeEvent) async {
        await post(NotificationsPaths.internalEvents, EventPostBody(event, producer: producer), what: event.type)
    }

    /// Posts once and, on failure, once more: the idempotency key makes the retry safe.
    private func post(_ path: String, _ body: some Encodable & Sendable, what: String) async {
        if let error = await client.deliver(path, body: body) {
            logger.warning("notice not delivered", metadata: ["what": "\(what)", "error": "\(error)"])
        }
    }
}

/// The body of a notice's post to the notifications service.
struct NoticePostBody: Encodable, Sendable {
    var recipientIds: [String]
    var kind, text, link, producer, idempotencyKey: String

    init(_ notice: Notice, producer: ServiceName) {
        self.recipientIds = notice.recipients
        self.kind = notice.kind
        self.text = notice.text
        self.link = notice.link
        self.producer = producer.rawValue
        self.idempotencyKey = notice.idempotencyKey
    }
}

/// The body of a realtime event's post to the notifications service.
struct EventPostBody: Encodable, Sendable {
    var recipientIds: [String]
    var type, producer, idempotencyKey: String
    /// The payload verbatim, as a JSON string the service re-parses: `Data` has no JSON-object encoding.
    var payload: String

    init(_ event: RealtimeEvent, producer: ServiceName) {
        self.recipientIds = event.recipients
        self.type = event.type
        self.producer = producer.rawValue
        self.idempotencyKey = event.idempotencyKey
        self.payload = String(decoding: event.payload, as: UTF8.self)
    }
}

/// Notices to the log, while no notifications service is configured.
public struct LoggingNoticeSink: NoticeSink {
    private let logger: Logger

    /// A sink writing to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    public func publish(_ notice: Notice) async {
        logger.info("notice", metadata: ["kind": "\(notice.kind)", "recipients": "\(notice.recipients.count)"])
    }
}

extension ServiceSettings {
    /// The notice sink for a service: the notifications service when its URL is set, else the log.
    public func noticeSink(notificationsURL: ServiceAddress?, logger: Logger) -> any NoticeSink {
        notificationsURL.map { NotificationsNoticeSink(address: $0, settings: self, logger: logger) }
            ?? LoggingNoticeSink(logger: logger)
    }
}
