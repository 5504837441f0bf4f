import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// My messaging settings: whether I share read receipts.
struct MessagingSettingsController {
    static let path = MessagingPaths.prefix + "/settings"
    let store: any MessagingStore

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(Self.path), use: show)
        router.put(RouterPath(Self.path), use: update)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> SettingsView {
        let me = context.user.userID
        return SettingsView(shareReadReceipts: try await store.sharesReadReceipts([me])[me] ?? true)
    }

    struct UpdateRequest: Decodable {
        var shareReadReceipts: Bool
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> SettingsView {
        let input = try await request.decode(as: UpdateRequest.self, context: context)
        try await store.setSharesReadReceipts(input.shareReadReceipts, for: context.user.userID)
        return SettingsView(shareReadReceipts: input.shareReadReceipts)
    }
}
