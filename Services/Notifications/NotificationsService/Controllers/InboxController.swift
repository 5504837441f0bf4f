import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The inbox: my notices newest first, the unread count, marking read, deleting.
struct InboxController {
    let store: any NotificationsStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let inbox = NotificationsPaths.notifications
        router.get(RouterPath(inbox), use: list)
        router.get(RouterPath(NotificationsPaths.unreadCount), use: unreadCount)
        router.post(RouterPath(NotificationsPaths.readAll), use: markAllRead)
        router.post(RouterPath(inbox + "/:notification/read"), use: markRead)
        router.delete(RouterPath(inbox + "/:notification"), use: delete)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<NotificationView> {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        let unreadOnly = try Self.flag(query["unread"].map(String.init), field: "unread")
        let rows = try await store.notifications(
            of: context.user.userID, after: try page.decodeCursor(as: Int64.self), limit: page.limit + 1,
            unreadOnly: unreadOnly)
        let numbers = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.number ?? 0) })
        return Page(fetched: rows.map(\.view), limit: page.limit) { numbers[$0.id] ?? 0 }
    }

    struct UnreadCount: ResponseEncodable {
        var unread: Int
    }

    @Sendable func unreadCount(_ request: Request, context: AuthenticatedContext) async throws -> UnreadCount {
        UnreadCount(unread: try await store.unreadCount(of: context.user.userID))
    }

    @Sendable func markRead(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("notification")
        _ = try await store.markRead(id, of: context.user.userID, now: clock.now)
        return .noContent
    }

    struct Marked: ResponseEncodable {
        var marked: Int
    }

    @Sendable func markAllRead(_ request: Request, context: AuthenticatedContext) async throws -> Marked {
        Marked(marked: try await store.markRead(nil, of: context.user.userID, now: clock.now))
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("notification")
        try await store.delete(id, of: context.user.userID)
        return .noContent
    }

    static func flag(_ value: String?, field: String) throws -> Bool {
        switch value {
        case nil, "false": return false
        case "true": return true
        default: throw Problem.invalidField(field, "must be true or false.")
        }
    }
}
