import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// My map colours per category (own, friend, other); per-pin choices live on the pin (`/pins/{id}/color`).
struct ColorsController {
    let database: any GeoStore

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.colors), use: show)
        router.put(RouterPath(GeoPaths.colors), use: replace)
    }

    struct ColorsView: ResponseEncodable, Sendable {
        var own: String
        var friend: String
        var other: String
        /// My per-pin choices, by pin id.
        var pins: [String: String]

        init(_ scheme: ColorScheme) {
            self.own = scheme.color(of: .own)
            self.friend = scheme.color(of: .friend)
            self.other = scheme.color(of: .other)
            self.pins = Dictionary(uniqueKeysWithValues: scheme.pins.map { (String($0.key), $0.value) })
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> ColorsView {
        ColorsView(try await database.colorScheme(of: context.user.userID))
    }

    /// Replaces my category colours; a category left out or null goes back to its default.
    struct ReplaceRequest: Decodable {
        var own: String?
        var friend: String?
        var other: String?
    }

    @Sendable func replace(_ request: Request, context: AuthenticatedContext) async throws -> ColorsView {
        let input = try await request.decode(as: ReplaceRequest.self, context: context)
        try await database.setCategoryColors(
            of: context.user.userID, own: try input.own.map { try ColorScheme.validate($0, field: "own") },
            friend: try input.friend.map { try ColorScheme.validate($0, field: "friend") },
            other: try input.other.map { try ColorScheme.validate($0, field: "other") })
        return ColorsView(try await database.colorScheme(of: context.user.userID))
    }
}
