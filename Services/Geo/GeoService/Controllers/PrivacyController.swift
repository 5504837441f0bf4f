import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Whether strangers see my name when they ask who visited a place (friends always do). Yes by default:
/// Getaway exists to put travellers in touch with people who have been there.
struct PrivacyController {
    let database: any GeoStore

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.privacy), use: show)
        router.put(RouterPath(GeoPaths.privacy), use: replace)
    }

    struct PrivacyView: ResponseEncodable, Decodable, Sendable {
        var listedToStrangers: Bool
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PrivacyView {
        PrivacyView(listedToStrangers: try await database.isListedToStrangers(context.user.userID))
    }

    @Sendable func replace(_ request: Request, context: AuthenticatedContext) async throws -> PrivacyView {
        let input = try await request.decode(as: PrivacyView.self, context: context)
        try await database.setListedToStrangers(context.user.userID, input.listedToStrangers)
        return input
    }
}
