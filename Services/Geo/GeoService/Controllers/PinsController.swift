import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Visited places: add, change, delete, my pins and another user's, and my colour for a pin.
struct PinsController {
    let database: any GeoStore
    let graph: any SocialRelationshipsLookup
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(GeoPaths.pins), use: create)
        router.get(RouterPath(GeoPaths.pins), use: list)
        router.get(RouterPath(GeoPaths.pins + "/:pin"), use: show)
        router.patch(RouterPath(GeoPaths.pins + "/:pin"), use: update)
        router.delete(RouterPath(GeoPaths.pins + "/:pin"), use: delete)
        router.put(RouterPath(GeoPaths.pins + "/:pin/color"), use: setColor)
        router.delete(RouterPath(GeoPaths.pins + "/:pin/color"), use: clearColor)
    }

    /// A new pin: a confirmed gazetteer place (`placeId`), raw coordinates, or both (the place names them). Without
    /// a `placeName`, the place or, for coordinates alone, the nearest one names it (``ReverseLookup``).
    struct CreateRequest: Decodable {
        var placeId: Int64?
        var latitude: Double?
        var longitude: Double?
        var placeName: String?
        var note: String?
        var visitedOn: String?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<PinView> {
        let input = try await request.decode(as: CreateRequest.self, context: context)
        var place: PlaceRecord?
        if let placeId = input.placeId {
            guard let found = try await database.place(placeId) else {
                throw Problem.invalidField("placeId", "is not a known place.")
            }
            place = found
        }
        guard let latitude = input.latitude ?? place?.latitude, let longitude = input.longitude ?? place?.longitude
        else {
            throw Problem.badRequest("missing_location", "Pass a placeId or both latitude and longitude.")
        }
        try Validate.coordinate(latitude: latitude, longitude: longitude)
        let given = try Validate.optionalText(input.placeName, field: "placeName", max: PinLimits.placeNameLength)
        var nearest = place
        if nearest == nil { nearest = try await database.nearestPlace(latitude: latitude, longitude: longitude) }
        let naming = ReverseLookup.naming(latitude: latitude, longitude: longitude, nearest: nearest)
        guard let name = given ?? place?.name ?? naming.name else {
            throw Problem.invalidField(
                "placeName", "must be given here: no known place is within \(Int(ReverseLookup.namingRadius / 1_000)) km.")
        }
        let now = clock.now
        let (pin, created) = try await database.createPin(
            PinRecord(
                id: nil, userId: context.user.userID, latitude: latitude, longitude: longitude, placeName: name,
                placeId: place?.id, countryCode: place?.countryCode ?? naming.countryCode,
                region: place?.region ?? naming.region,
                note: try Validate.optionalText(input.note, field: "note", max: PinLimits.noteLength),
                visitedOn: try PinVisibility.visitDate(input.visitedOn, now: now), createdAt: now, updatedAt: now))
        let scheme = try await database.colorScheme(of: context.user.userID)
        // Pinning a place again answers the pin I already have there, unchanged (200, same id).
        let photoCount = created ? 0 : (try await database.photoCounts([pin.id ?? 0])[pin.id ?? 0] ?? 0)
        return EditedResponse(
            status: created ? .created : .ok,
            response: PinView(pin, category: .own, scheme: scheme, photoCount: photoCount))
    }

    /// My pins, or with `userId` another user's, newest first. A block either way, or a stranger who asked not
    /// to be named to strangers, reads as a user without pins: an error would tell the viewer why.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<PinView> {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        let viewer = context.user.userID
        let owner = query["userId"].map(String.init) ?? viewer
        guard owner.count <= 64 else { return Page(items: [], nextCursor: nil) }
        let standing = try await graph.standing(of: owner, to: viewer)
        guard let category = try? PinVisibility.category(owner: owner, viewer: viewer, standing: standing) else {
            return Page(items: [], nextCursor: nil)
        }
        // A stranger who asked not to be named to strangers reads as a user without pins.
        if category == .other, !(try await database.isListedToStrangers(owner)) {
            return Page(items: [], nextCursor: nil)
        }
        let rows = try await database.pins(
            of: owner, before: try page.decodeCursor(as: Int64.self), limit: page.limit + 1)
        let counts = try await database.photoCounts(rows.compactMap(\.id))
        let scheme = try await database.colorScheme(of: viewer)
        let views = rows.map { PinView($0, category: category, scheme: scheme, photoCount: counts[$0.id ?? 0] ?? 0) }
        return Page(fetched: views, limit: page.limit) { Int64($0.id) ?? 0 }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PinView {
        let (pin, category) = try await visiblePin(try context.parameters.id("pin", "The pin"), to: context.user.userID)
        return try await view(pin, category: category, viewer: context.user.userID)
    }

    /// The pin and how it stands to the viewer; a pin hidden from them is not found.
    private func visiblePin(_ id: Int64, to viewer: String) async throws -> (PinRecord, PinCategory) {
        let pin = try await database.pin(id)
        let standing = try await graph.standing(of: pin.userId, to: viewer)
        return (pin, try PinVisibility.category(owner: pin.userId, viewer: viewer, standing: standing))
    }

    /// Another user's pin as the viewer may see it: a stranger's owner is named only when they allow it.
    private func view(_ pin: PinRecord, category: PinCategory, viewer: String) async throws -> PinView {
        let counts = try await database.photoCounts([pin.id ?? 0])
        let named = category == .other ? try await database.isListedToStrangers(pin.userId) : true
        return PinView(
            pin, category: category, scheme: try await database.colorScheme(of: viewer),
            photoCount: counts[pin.id ?? 0] ?? 0, named: named)
    }

    /// Changes of my pin; an empty `note` or `visitedOn` clears it.
    struct UpdateRequest: Decodable {
        var latitude: Double?
        var longitude: Double?
        var placeName: String?
        var note: String?
        var visitedOn: String?
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> PinView {
        let id = try context.parameters.id("pin", "The pin")
        let input = try await request.decode(as: UpdateRequest.self, context: context)
        let now = clock.now
        let name = try input.placeName.map { try Validate.text($0, field: "placeName", max: PinLimits.placeNameLength) }
        let note = try input.note.map { try Validate.optionalText($0, field: "note", max: PinLimits.noteLength) }
        let visited = try input.visitedOn.map { $0.isEmpty ? nil : try PinVisibility.visitDate($0, now: now) }
        if input.latitude != nil || input.longitude != nil {
            guard let latitude = input.latitude, let longitude = input.longitude else {
                throw Problem.badRequest("missing_location", "Move a pin with both latitude and longitude.")
            }
            try Validate.coordinate(latitude: latitude, longitude: longitude)
        }
        var naming: ReverseLookup.Naming?
        if let latitude = input.latitude, let longitude = input.longitude {
            naming = ReverseLookup.naming(
                latitude: latitude, longitude: longitude,
                nearest: try await database.nearestPlace(latitude: latitude, longitude: longitude))
        }
        let moved = naming
        let pin = try await database.changePin(id, of: context.user.userID) { pin in
            if let latitude = input.latitude, let longitude = input.longitude, let moved {
                pin.latitude = latitude
                pin.longitude = longitude
                pin.countryCode = moved.countryCode
                pin.region = moved.region
                pin.placeId = nil
            }
            if let name { pin.placeName = name }
            if let note { pin.note = note }
            if let visited { pin.visitedOn = visited }
            pin.updatedAt = now
        }
        let counts = try await database.photoCounts([id])
        return PinView(
            pin, category: .own, scheme: try await database.colorScheme(of: context.user.userID),
            photoCount: counts[id] ?? 0)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deletePin(
            try context.parameters.id("pin", "The pin"), of: context.user.userID)
        return .noContent
    }

    struct ColorRequest: Decodable {
        var color: String
    }

    /// My colour for any pin I can see (mine or someone else's); it overrides the category colour for me only.
    @Sendable func setColor(_ request: Request, context: AuthenticatedContext) async throws -> PinView {
        let input = try await request.decode(as: ColorRequest.self, context: context)
        let color = try ColorScheme.validate(input.color, field: "color")
        let viewer = context.user.userID
        let (pin, category) = try await visiblePin(try context.parameters.id("pin", "The pin"), to: viewer)
        try await database.setPinColor(of: viewer, pin: pin.id ?? 0, color: color)
        return try await view(pin, category: category, viewer: viewer)
    }

    @Sendable func clearColor(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let viewer = context.user.userID
        let (pin, _) = try await visiblePin(try context.parameters.id("pin", "The pin"), to: viewer)
        try await database.setPinColor(of: viewer, pin: pin.id ?? 0, color: nil)
        return .noContent
    }
}
