import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Reactions to a friend's pin: friends add, change or remove theirs; everyone who may see the pin reads the
/// counts and their own, its owner also who reacted. The owner is told once per friend per pin.
struct PinReactionsController {
    let database: any GeoStore
    let graph: any SocialRelationshipsLookup
    let directory: any UserDirectory
    let clock: WallClock
    let notices: any NoticeSink

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.pins + "/:pin/reactions"), use: list)
        router.put(RouterPath(GeoPaths.pins + "/:pin/reactions/mine"), use: react)
        router.delete(RouterPath(GeoPaths.pins + "/:pin/reactions/mine"), use: remove)
    }

    /// The pin and how it stands to the viewer; a pin hidden from them (a block) is not found.
    private func visiblePin(_ request: Request, context: AuthenticatedContext) async throws -> (PinRecord, PinCategory)
    {
        let pin = try await database.pin(try context.parameters.id("pin", "The pin"))
        let viewer = context.user.userID
        let standing = try await graph.standing(of: pin.userId, to: viewer)
        return (pin, try PinVisibility.category(owner: pin.userId, viewer: viewer, standing: standing))
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> PinReactionsView {
        let (pin, category) = try await visiblePin(request, context: context)
        return try await view(pin, category: category, viewer: context.user.userID)
    }

    struct ReactRequest: Decodable {
        var kind: String
    }

    @Sendable func react(_ request: Request, context: AuthenticatedContext) async throws -> PinReactionsView {
        let input = try await request.decode(as: ReactRequest.self, context: context)
        let kind = try PinReactions.kind(input.kind)
        let (pin, category) = try await visiblePin(request, context: context)
        try PinReactions.requireMayReact(category)
        let viewer = context.user.userID
        let pinID = pin.id ?? 0
        // Friends know each other: the notice names the reactor (asked first: it is written with the reaction).
        let name = try await directory.users(ids: [viewer]).first?.displayName ?? "A friend"
        let (owner, place) = (pin.userId, pin.placeName)
        _ = try await database.setReaction(
            on: pinID, by: viewer, kind: kind, now: clock.now,
            notices: ChangeNotices(sink: notices) { first in
                guard first else { return [] }
                return [
                    Notice(
                        recipients: [owner], kind: "geo.pin_reaction",
                        text: "\(name) reacted \(PinReactions.emoji[kind] ?? "") to your pin \(place).",
                        link: GeoPaths.pins + "/\(pinID)", idempotencyKey: "pin-reaction:\(pinID):\(viewer)")
                ]
            })
        return try await view(pin, category: category, viewer: viewer)
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let (pin, category) = try await visiblePin(request, context: context)
        try PinReactions.requireMayReact(category)
        _ = try await database.setReaction(on: pin.id ?? 0, by: context.user.userID, kind: nil, now: clock.now)
        return .noContent
    }

    private func view(_ pin: PinRecord, category: PinCategory, viewer: String) async throws -> PinReactionsView {
        let reactions = try await database.reactions(on: pin.id ?? 0)
        let reactors = reactions.map { PinReactionsView.Reactor(userId: $0.userId, kind: $0.kind) }
        return PinReactionsView(
            counts: PinReactions.counts(reactions), mine: reactions.first(where: { $0.userId == viewer })?.kind,
            reactors: category == .own ? reactors : nil)
    }
}

/// A pin's reactions: counts per kind (every kind listed), mine, and, for the pin's owner only, who reacted how.
struct PinReactionsView: ResponseEncodable, Sendable {
    struct Reactor: Encodable, Sendable {
        var userId: String
        var kind: String
    }

    var counts: [String: Int]
    var mine: String?
    var reactors: [Reactor]?
}
