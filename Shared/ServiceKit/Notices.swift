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

    /// Creates a notice.
    public init(recipients: [String], kind: String, text: String, link: String) {
        self.recipients = recipients
        self.kind = kind
        self.text = text
        self.link = link
    }
}

/// Where a service's notices go.
public protocol NoticeSink: Sendable {
    /// Hands the notice on; never fails the caller's request.
    func publish(_ notice: Notice) async
}

/// Posts notices to the notifications service's internal endpoint; a failure is logged and never fails
/// the user's request (the notice is lost, the change the user made is not).
public struct NotificationsNoticeSink: NoticeSink {
    private let client: InternalClient
    private let producer: ServiceName
    private let logger: Logger
    /// The internal route notices are posted to.
    public static let path = "/internal/notifications"

    /// A sink posting to the notifications service at `baseURL`.
    public init(baseURL: String, settings: ServiceSettings, logger: Logger) {
        self.client = InternalClient(service: .notifications, baseURL: baseURL, token: settings.internalToken)
        self.producer = settings.service
        self.logger = logger
    }

    public func publish(_ notice: Notice) async {
        struct Body: Encodable, Sendable {
            var recipientIds: [String]
            var kind, text, link, producer, idempotencyKey: String
        }
        struct Ignored: Decodable {}
        let body = Body(
            recipientIds: notice.recipients, kind: notice.kind, text: notice.text, link: notice.link,
            producer: producer.rawValue, idempotencyKey: UUID().uuidString)
        do {
            _ = try await client.post(Self.path, body: body, as: Ignored.self)
        } catch {
            logger.warning("notice not delivered", metadata: ["kind": "\(notice.kind)", "error": "\(error)"])
        }
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
    public func noticeSink(notificationsURL: String?, logger: Logger) -> any NoticeSink {
        notificationsURL.map { NotificationsNoticeSink(baseURL: $0, settings: self, logger: logger) }
            ?? LoggingNoticeSink(logger: logger)
    }
}
