import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

extension GeoPaths {
    /// My trips (`GET`, `POST`), a user's (`?userId=`), one trip (`/{id}`) with its pins by day.
    static let trips = prefix + "/trips"
}

/// Trips: the owner makes, changes and deletes them; a trip shared with friends is read by the owner's friends,
/// a private one by its owner only (404 to anyone else, as a missing one).
struct TripsController {
    let database: any GeoStore
    let graph: any SocialRelationshipsLookup
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(GeoPaths.trips), use: create)
        router.get(RouterPath(GeoPaths.trips), use: list)
        router.get(RouterPath(GeoPaths.trips + "/:trip"), use: show)
        router.patch(RouterPath(GeoPaths.trips + "/:trip"), use: update)
        router.delete(RouterPath(GeoPaths.trips + "/:trip"), use: delete)
    }

    /// A trip's fields as sent; on a change, each one sent is changed (an empty `coverPhotoId` clears the cover).
    struct TripRequest: Decodable {
        var name: String?
        var startsOn: String?
        var endsOn: String?
        var visibility: String?
        var coverPhotoId: String?

        func name(required: Bool) throws -> String? {
            guard let name else {
                if required { throw Problem.invalidField("name", "is required.") }
                return nil
            }
            return try Validate.text(name, field: "name", max: Trips.nameLength)
        }
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<TripView> {
        let input = try await request.decode(as: TripRequest.self, context: context)
        let name = try input.name(required: true) ?? ""
        let startsOn = try Trips.day(input.startsOn ?? "", field: "startsOn")
        let endsOn = try Trips.day(input.endsOn ?? "", field: "endsOn")
        try Trips.checkSpan(startsOn: startsOn, endsOn: endsOn)
        let now = clock.now
        let trip = try await database.createTrip(
            TripRecord(
                id: nil, userId: context.user.userID, name: name, startsOn: startsOn, endsOn: endsOn,
                visibility: try Trips.visibility(input.visibility ?? "private").rawValue,
                coverPhotoId: try Self.photoID(input.coverPhotoId), coverPinId: nil, createdAt: now, updatedAt: now))
        return EditedResponse(status: .created, response: try await view(trip, viewer: context.user.userID))
    }

    /// My trips, or with `userId` those another user shares with me; newest start first.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<TripView> {
        let viewer = context.user.userID
        let page = try request.pageRequest()
        let offset = try page.offset()
        let owner = request.uri.queryParameters["userId"].map(String.init) ?? viewer
        guard owner.count <= 64 else { return Page(items: [], nextCursor: nil) }
        let standing = try await graph.standing(of: owner, to: viewer)
        let trips = try await database.trips(of: owner).filter {
            Trips.mayRead(
                owner: owner, viewer: viewer, visibility: Trips.Visibility(rawValue: $0.visibility) ?? .private,
                standing: standing)
        }
        let slice = trips.dropFirst(offset).prefix(page.limit)
        return Page(
            items: slice.map { TripView($0, pins: nil) },
            nextCursor: OffsetCursor.next(after: offset, count: slice.count, total: trips.count))
    }

    /// A trip with its pins by day.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> TripView {
        let viewer = context.user.userID
        let trip = try await database.trip(try context.parameters.id("trip", "The trip"))
        let standing = try await graph.standing(of: trip.userId, to: viewer)
        guard
            Trips.mayRead(
                owner: trip.userId, viewer: viewer, visibility: Trips.Visibility(rawValue: trip.visibility) ?? .private,
                standing: standing)
        else { throw GeoError.notFound("The trip") }
        return try await view(trip, viewer: viewer)
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> TripView {
        let id = try context.parameters.id("trip", "The trip")
        let input = try await request.decode(as: TripRequest.self, context: context)
        let name = try input.name(required: false)
        let startsOn = try input.startsOn.map { try Trips.day($0, field: "startsOn") }
        let endsOn = try input.endsOn.map { try Trips.day($0, field: "endsOn") }
        let visibility = try input.visibility.map { try Trips.visibility($0) }
        let cover = try input.coverPhotoId.map { try Self.photoID($0) }
        let now = clock.now
        let trip = try await database.changeTrip(id, of: context.user.userID) { trip in
            if let name { trip.name = name }
            if let startsOn { trip.startsOn = startsOn }
            if let endsOn { trip.endsOn = endsOn }
            if let visibility { trip.visibility = visibility.rawValue }
            if let cover { trip.coverPhotoId = cover }
            trip.updatedAt = now
        }
        return try await view(trip, viewer: context.user.userID)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deleteTrip(try context.parameters.id("trip", "The trip"), of: context.user.userID)
        return .noContent
    }

    /// A photo id as sent (empty: none); ids are short printable tokens, so anything long or holding a control
    /// character (PostgreSQL's text cannot hold NUL) is refused before any lookup.
    static func photoID(_ value: String?) throws -> String? {
        guard let value, !value.isEmpty else { return nil }
        guard value.count <= 64, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw Problem.invalidField("coverPhotoId", "is not a photo id.") }
        return value
    }

    /// The trip with its pins by day, coloured as the viewer sees its owner's pins.
    private func view(_ trip: TripRecord, viewer: String) async throws -> TripView {
        let pins = try await database.pins(of: trip.userId, before: nil, limit: PinLimits.pinsPerUser)
        let inside = Trips.pinsInside(pins, startsOn: trip.startsOn, endsOn: trip.endsOn)
        let counts = try await database.photoCounts(inside.compactMap(\.pin.id))
        let scheme = try await database.colorScheme(of: viewer)
        let category: PinCategory = trip.userId == viewer ? .own : .friend
        return TripView(
            trip,
            pins: inside.map {
                TripView.DayPin(
                    day: $0.day,
                    pin: PinView($0.pin, category: category, scheme: scheme, photoCount: counts[$0.pin.id ?? 0] ?? 0))
            })
    }
}

/// A trip; `pins` (by day) only when one trip is read.
struct TripView: ResponseEncodable, Sendable {
    struct DayPin: Encodable, Sendable {
        var day: String
        var pin: PinView
    }

    struct Cover: Encodable, Sendable {
        var photoId: String
        var pinId: String
        var url: String
    }

    var id: String
    var userId: String
    var name: String
    var startsOn: String
    var endsOn: String
    var visibility: String
    var cover: Cover?
    var pins: [DayPin]?
    var createdAt: Date
    var updatedAt: Date

    init(_ trip: TripRecord, pins: [DayPin]?) {
        id = String(trip.id ?? 0)
        userId = trip.userId
        name = trip.name
        startsOn = trip.startsOn
        endsOn = trip.endsOn
        visibility = trip.visibility
        if let photo = trip.coverPhotoId, let pin = trip.coverPinId {
            cover = Cover(photoId: photo, pinId: String(pin), url: GeoPaths.pins + "/\(pin)/photos/\(photo)")
        }
        self.pins = pins
        createdAt = trip.createdAt
        updatedAt = trip.updatedAt
    }
}
