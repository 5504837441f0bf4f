import Foundation
import Logging
import PlatformKit
import ServiceKit

/// What the household service needs to know about users: the identity service's profiles.
public protocol UserDirectory: Sendable {
    /// The user with this username, or `nil`.
    func user(username: String) async throws -> DirectoryUser?
    /// The users with these ids that exist.
    func users(ids: [String]) async throws -> [DirectoryUser]
}

/// Profile basics of a user, as the identity service shares them.
public struct DirectoryUser: Codable, Sendable, Equatable {
    public var id: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?

    public init(id: String, username: String?, displayName: String, avatarUrl: String? = nil) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarUrl = avatarUrl
    }
}

/// The identity service's internal lookups.
struct IdentityUserDirectory: UserDirectory {
    let client: InternalClient

    func user(username: String) async throws -> DirectoryUser? {
        do {
            let path =
                IdentityPaths.internalUserByUsername + "/"
                + (username.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            return try await client.get(path, as: DirectoryUser.self)
        } catch InternalCallError.failed(_, status: 404, _) {
            return nil
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    func users(ids: [String]) async throws -> [DirectoryUser] {
        struct Reply: Decodable { var users: [DirectoryUser] }
        do {
            return try await client.post(IdentityPaths.internalUsersBatch, body: ["ids": ids], as: Reply.self).users
        } catch let error as InternalCallError {
            throw error.problem
        }
    }
}

/// A notice for household members ("Sam completed Take out the trash").
public struct HouseholdEvent: Sendable, Equatable {
    public var recipients: [String]
    public var kind: String
    public var text: String
    public var link: String
}

/// Where notices go: the notifications service, or the log.
public protocol HouseholdEventSink: Sendable {
    func publish(_ event: HouseholdEvent) async
}

/// Posts notices to the notifications service; a failure is logged and never fails the user's request.
struct NotificationsEventSink: HouseholdEventSink {
    let client: InternalClient
    let logger: Logger

    func publish(_ event: HouseholdEvent) async {
        struct Body: Encodable, Sendable {
            var recipientIds: [String]
            var kind, text, link, producer, idempotencyKey: String
        }
        let body = Body(
            recipientIds: event.recipients, kind: event.kind, text: event.text, link: event.link, producer: "household",
            idempotencyKey: UUID().uuidString)
        do {
            struct Ignored: Decodable {}
            _ = try await client.post("/internal/notifications", body: body, as: Ignored.self)
        } catch {
            logger.warning("notice not delivered", metadata: ["kind": "\(event.kind)", "error": "\(error)"])
        }
    }
}

/// Notices to the log, while no notifications service is configured.
struct LoggingEventSink: HouseholdEventSink {
    let logger: Logger

    func publish(_ event: HouseholdEvent) async {
        logger.info("household notice", metadata: ["kind": "\(event.kind)", "recipients": "\(event.recipients.count)"])
    }
}
