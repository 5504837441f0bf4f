import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Place search in the gazetteer, and who visited a place.
struct PlacesController {
    let database: any GeoStore
    let graph: any SocialRelationshipsLookup
    let directory: any UserDirectory
    static let maximumResults = 20
    static let maximumRadius = 100_000.0
    static let defaultRadius = 10_000.0
    /// Pins read around one place; a denser area is answered from its nearest part.
    static let maximumVisitorPins = 50_000

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.places), use: search)
        router.get(RouterPath(GeoPaths.places + "/:place"), use: show)
        router.get(RouterPath(GeoPaths.visitors), use: visitors)
    }

    /// `query` (2-100 characters; accents and case ignored, a few typos forgiven), `limit` up to 20.
    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> Page<PlaceView> {
        let parameters = request.uri.queryParameters
        let text = try Validate.text(parameters["query"].map(String.init) ?? "", field: "query", max: 100)
        let folded = PlaceMatching.fold(text)
        guard folded.count >= 2 else { throw Problem.invalidField("query", "must be at least 2 characters.") }
        var limit = 10
        if let value = parameters["limit"] {
            guard let number = Int(value), (1...Self.maximumResults).contains(number) else {
                throw Problem.invalidField("limit", "must be a whole number from 1 to \(Self.maximumResults).")
            }
            limit = number
        }
        let hits = try await database.searchPlaces(folded: folded, limit: limit)
        // The best `limit` matches, ranked: a search has no next page.
        return Page(
            items: hits.map {
                PlaceView($0.place, matchedName: $0.matchedName == $0.place.name ? nil : $0.matchedName)
            }, nextCursor: nil)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PlaceView {
        guard let id = Int64(try context.parameters.require("place")), let place = try await database.place(id) else {
            throw Problem.notFound("The place")
        }
        return PlaceView(place)
    }

    struct Visitor: Encodable, Sendable {
        var user: DirectoryUser
        var friend: Bool
        var pinCount: Int
        /// Metres from the centre to this user's nearest pin.
        var distance: Int
    }

    struct VisitorsPage: ResponseEncodable, Sendable {
        var place: PlaceView?
        var latitude: Double
        var longitude: Double
        var radius: Double
        var friendCount: Int
        var otherCount: Int
        /// Strangers who pinned it but asked not to be named to strangers: counted, not listed.
        var hiddenCount: Int
        var items: [Visitor]
        var nextCursor: String?
    }

    /// Who pinned a place (`placeId`) or the area around a point (`latitude`, `longitude`), within `radius`
    /// metres: friends first, then by how many pins they have there; users blocked either way are left out,
    /// strangers who asked not to be named are only counted.
    @Sendable func visitors(_ request: Request, context: AuthenticatedContext) async throws -> VisitorsPage {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        var place: PlaceRecord?
        let latitude: Double
        let longitude: Double
        if let raw = query["placeId"] {
            guard let id = Int64(raw), let found = try await database.place(id) else {
                throw Problem.notFound("The place")
            }
            (place, latitude, longitude) = (found, found.latitude, found.longitude)
        } else {
            guard let lat = query["latitude"].flatMap({ Double($0) }),
                let lon = query["longitude"].flatMap({ Double($0) })
            else {
                throw Problem.badRequest("missing_location", "Pass a placeId or both latitude and longitude.")
            }
            try Validate.coordinate(latitude: lat, longitude: lon)
            (latitude, longitude) = (lat, lon)
        }
        var radius = Self.defaultRadius
        if let raw = query["radius"] {
            guard let value = Double(raw), value.isFinite, value >= 1, value <= Self.maximumRadius else {
                throw Problem.invalidField("radius", "must be from 1 to \(Int(Self.maximumRadius)) metres.")
            }
            radius = value
        }
        let viewer = context.user.userID
        let box = BoundingBox.around(latitude: latitude, longitude: longitude, radius: radius)
        let byUser = Visitors.tally(
            try await database.points(in: box, limit: Self.maximumVisitorPins), latitude: latitude,
            longitude: longitude, radius: radius, except: viewer)
        let standing = (byUser.isEmpty ? [:] : try await graph.relationships(of: viewer, among: byUser.keys.sorted()))
            .mapValues { Standing(friends: $0.friends, blocked: $0.blocked) }
        let unlisted = try await database.unlistedToStrangers(
            among: byUser.keys.filter { standing[$0]?.blocked != true && standing[$0]?.friends != true }.sorted())
        let ranked = Visitors.rank(byUser, standing: standing, unlisted: unlisted)
        let offset = try page.offset()
        let slice = Array(ranked.dropFirst(offset).prefix(page.limit))
        let profiles = Dictionary(
            try await directory.users(ids: slice.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }
        )
        let friendCount = ranked.count { $0.friend }
        return VisitorsPage(
            place: place.map { PlaceView($0) }, latitude: latitude, longitude: longitude, radius: radius,
            friendCount: friendCount, otherCount: ranked.count - friendCount, hiddenCount: unlisted.count,
            items: slice.compactMap { visitor in
                // A user deleted since pinning has no profile any more: left out.
                profiles[visitor.id].map {
                    Visitor(
                        user: $0, friend: visitor.friend, pinCount: visitor.count,
                        distance: Int(visitor.distance.rounded()))
                }
            },
            nextCursor: OffsetCursor.next(after: offset, count: slice.count, total: ranked.count))
    }
}
