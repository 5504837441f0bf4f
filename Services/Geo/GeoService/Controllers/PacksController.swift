import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Packs: create (the creator is the alpha), look at one, my packs, edit, join, leave, close.
struct PacksController {
    let database: any GeoStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(GeoPaths.packs), use: create)
        router.get(RouterPath(GeoPaths.packs + "/mine"), use: mine)
        router.get(RouterPath(GeoPaths.packs + "/:pack"), use: show)
        router.patch(RouterPath(GeoPaths.packs + "/:pack"), use: edit)
        router.delete(RouterPath(GeoPaths.packs + "/:pack"), use: close)
        router.put(RouterPath(GeoPaths.packs + "/:pack/membership"), use: join)
        router.delete(RouterPath(GeoPaths.packs + "/:pack/membership"), use: leave)
    }

    struct CreateRequest: Decodable {
        var name: String
        var latitude: Double
        var longitude: Double
        var radiusMeters: Int
        var tags: [String]
        var color: String
        var icon: String?
        var locked: Bool?
    }

    /// A new pack; an admin's is official and never expires, anyone else's lives 24 to 48 hours.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<PackView> {
        let input = try await request.decode(as: CreateRequest.self, context: context)
        try Validate.coordinate(latitude: input.latitude, longitude: input.longitude)
        guard PackLimits.radius.contains(input.radiusMeters) else {
            throw Problem.invalidField(
                "radiusMeters",
                "must be from \(PackLimits.radius.lowerBound) to \(PackLimits.radius.upperBound) metres.")
        }
        let now = clock.now
        let official = context.user.isAdmin
        let tags = try AnonymousText.tags(input.tags, required: true)
        let pack = try await database.createPack(
            PackRecord(
                id: nil,
                name: try Validate.text(AnonymousText.line(input.name), field: "name", max: PackLimits.nameLength),
                latitude: input.latitude, longitude: input.longitude, radiusMeters: input.radiusMeters,
                tags: StoredJSON.array(tags), color: try ColorScheme.validate(input.color, field: "color"),
                icon: try Validate.text(
                    AnonymousText.line(input.icon ?? "pawprint"), field: "icon", max: PackLimits.iconLength),
                locked: input.locked ?? false, alphaId: context.user.userID, official: official, memberCount: 0,
                postCount: 0, upVotes: 0, downVotes: 0, createdAt: now,
                expiresAt: official ? nil : now.addingTimeInterval(PackLifetime.base), warned: false),
            now: now)
        return EditedResponse(status: .created, response: try await view(pack, request: request, context: context))
    }

    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Page<PackView> {
        let position = try request.clientPosition()
        let viewer = context.user.userID
        let packs = try await database.packs(of: viewer, now: clock.now)
        let names = try await database.memberships(of: viewer, in: packs.compactMap(\.id))
        return try request.page(
            of:
                packs.map {
                    PackView($0, viewer: viewer, pseudonym: names[$0.id ?? 0], position: position)
                })
    }

    /// A live pack; locked packs are shown from anywhere, only their content is fenced.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PackView {
        try await view(
            try await database.livePack(try context.parameters.id("pack", "The pack"), now: clock.now),
            request: request, context: context)
    }

    struct EditRequest: Decodable {
        var name: String?
        var tags: [String]?
        var color: String?
        var icon: String?
        var radiusMeters: Int?
        var locked: Bool?
    }

    /// The alpha (while a member) or an admin changes the pack's name, tags, colour and icon; its radius and lock
    /// only until the first post (409 `pack_has_posts` after).
    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> PackView {
        let id = try context.parameters.id("pack", "The pack")
        let input = try await request.decode(as: EditRequest.self, context: context)
        if let radius = input.radiusMeters, !PackLimits.radius.contains(radius) {
            throw Problem.invalidField(
                "radiusMeters",
                "must be from \(PackLimits.radius.lowerBound) to \(PackLimits.radius.upperBound) metres.")
        }
        let edit = PackEdit(
            name: try input.name.map {
                try Validate.text(AnonymousText.line($0), field: "name", max: PackLimits.nameLength)
            },
            tags: try input.tags.map { try AnonymousText.tags($0, required: true) },
            color: try input.color.map { try ColorScheme.validate($0, field: "color") },
            icon: try input.icon.map {
                try Validate.text(AnonymousText.line($0), field: "icon", max: PackLimits.iconLength)
            },
            radiusMeters: input.radiusMeters, locked: input.locked)
        let pack = try await database.editPack(
            id, by: context.user.userID, isAdmin: context.user.isAdmin, now: clock.now, edit)
        return try await view(pack, request: request, context: context)
    }

    /// The alpha or an admin ends a pack now; its content is flushed by the next sweep.
    @Sendable func close(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.closePack(
            try context.parameters.id("pack", "The pack"), by: context.user.userID, isAdmin: context.user.isAdmin,
            now: clock.now)
        return .noContent
    }

    /// Joins; a locked pack only from inside its radius.
    @Sendable func join(_ request: Request, context: AuthenticatedContext) async throws -> PackView {
        let position = try request.clientPosition()
        let joined = try await database.join(
            try context.parameters.id("pack", "The pack"), user: context.user.userID, at: position, now: clock.now)
        return try await view(joined, request: request, context: context)
    }

    @Sendable func leave(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.id("pack", "The pack")
        try await database.leave(id, user: context.user.userID, now: clock.now)
        return .noContent
    }

    private func view(_ pack: PackRecord, request: Request, context: AuthenticatedContext) async throws -> PackView {
        let viewer = context.user.userID
        let names = try await database.memberships(of: viewer, in: [pack.id ?? 0])
        return PackView(
            pack, viewer: viewer, pseudonym: names[pack.id ?? 0], position: try request.clientPosition())
    }
}
