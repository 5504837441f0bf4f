import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import GeoService

/// The controllers behind a router with a fake social graph: each route's edge cases, fast. A bearer token is
/// the caller's user id (the fake verifier trusts it); `admin` holds the admin role.
@Suite struct GeoRouterTests {
    /// ann and bob are friends; dan and ann blocked each other; cat is a stranger to everyone.
    struct Graph: FriendIDsLookup, FriendAndBlockedIDsLookup, SocialRelationshipsLookup {
        static let friends: Set<[String]> = [["ann", "bob"]]
        static let blocks: Set<[String]> = [["ann", "dan"]]

        func friendIDs(of viewer: String) async throws -> Set<String> {
            Set(Self.friends.filter { $0.contains(viewer) }.flatMap { $0 }).subtracting([viewer])
        }

        func friendAndBlockedIDs(of viewer: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
            let blocked = Set(Self.blocks.filter { $0.contains(viewer) }.flatMap { $0 }).subtracting([viewer])
            return (try await friendIDs(of: viewer), blocked)
        }

        func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
            Dictionary(
                uniqueKeysWithValues: others.map { other in
                    let pair = [viewer, other].sorted()
                    return (
                        other, SocialFacts(friends: Self.friends.contains(pair), blocked: Self.blocks.contains(pair))
                    )
                })
        }
    }

    struct Directory: UserDirectory {
        func user(username: String) async throws -> DirectoryUser? { nil }
        func users(ids: [String]) async throws -> [DirectoryUser] {
            ids.map { DirectoryUser(id: $0, username: $0, displayName: $0) }
        }
    }

    final class Notices: NoticeSink {
        let sent = Mutex<[Notice]>([])
        func publish(_ notice: Notice) async { sent.withLock { $0.append(notice) } }
    }

    let database: SQLiteGeoStore
    let now = Date()
    let notices = Notices()

    init() throws {
        database = try SQLiteGeoStore(.inMemory)
    }

    /// The controllers on `database`, or by default on the suite's own (which holds no gazetteer).
    func app(_ database: SQLiteGeoStore? = nil) -> some ApplicationProtocol {
        let database = database ?? self.database
        let router = ServiceApplication.router(
            metrics: ServiceMetrics(), openAPIDocument: Data("{}".utf8), database: nil)
        let verifier = AccessTokenVerifier { token in
            AccessTokenClaims(
                userID: token, sessionID: "s-\(token)", roles: token == "admin" ? ["admin"] : [], issuedAt: Date(),
                lifetime: 900)
        }
        let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            .group(context: AuthenticatedContext.self)
        let clock = WallClock.system
        PinsController(database: database, graph: Graph(), clock: clock).addRoutes(to: signedIn)
        PhotosController(database: database, graph: Graph(), clock: clock).addRoutes(to: signedIn)
        MapController(database: database, graph: Graph()).addRoutes(to: signedIn)
        PlacesController(database: database, graph: Graph(), directory: Directory()).addRoutes(to: signedIn)
        ColorsController(database: database).addRoutes(to: signedIn)
        PrivacyController(database: database).addRoutes(to: signedIn)
        WorldShareController(database: database, graph: Graph(), directory: Directory()).addRoutes(to: signedIn)
        TripsController(database: database, graph: Graph(), clock: clock).addRoutes(to: signedIn)
        PinReactionsController(
            database: database, graph: Graph(), directory: Directory(), clock: clock, notices: notices
        ).addRoutes(to: signedIn)
        PacksController(database: database, clock: clock).addRoutes(to: signedIn)
        PackPostsController(
            database: database, clock: clock, postLimiter: RateLimiter(capacity: 100, period: 60, clock: clock),
            commentLimiter: RateLimiter(capacity: 100, period: 60, clock: clock), notices: notices
        ).addRoutes(to: signedIn)
        FeedController(database: database, clock: clock).addRoutes(to: signedIn)
        PackReportsController(database: database, clock: clock, threshold: 3).addRoutes(to: signedIn)
        PackModerationController(database: database, clock: clock, notices: notices).addRoutes(to: signedIn)
        return Application(router: router)
    }

    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var problem: Problem?
    }

    func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, as user: String,
        json: String? = nil, body: ByteBuffer? = nil, headers: HTTPFields = [:]
    ) async throws -> Answer {
        var headers = headers
        headers[.authorization] = "Bearer \(user)"
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) } ?? body
        ) { response in
            Answer(
                status: response.status, headers: response.headers,
                problem: response.status.code >= 400
                    ? try? JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView)) : nil)
        }
    }

    func pin(_ user: String) async throws -> Int64 {
        try await database.createPin(
            PinRecord(
                id: nil, userId: user, latitude: 48.85, longitude: 2.35, placeName: "Paris", placeId: nil,
                countryCode: "FR", note: nil, visitedOn: nil, createdAt: now, updatedAt: now)
        ).pin.id!
    }

    /// A pack of ann's at (0, 0) with a 1 km radius.
    func pack(locked: Bool = false) async throws -> Int64 {
        try await database.createPack(
            PackRecord(
                id: nil, name: "Campus", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: #"["food"]"#,
                color: "#000000", icon: "x", locked: locked, alphaId: "ann", official: false, memberCount: 0,
                postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: now.addingTimeInterval(86_400),
                warned: false),
            now: now
        ).id!
    }

    static let inside: HTTPFields = [HTTPField.Name("Geo-Position")!: "0;0"]
    static let outside: HTTPFields = [HTTPField.Name("Geo-Position")!: "10;10"]

    // MARK: Pins and photos

    @Test func pinsHideFromBlockedUsersAndNameBadFields() async throws {
        let pin = try await pin("ann")
        try await app().test(.router) { client async throws in
            let path = GeoPaths.pins + "/\(pin)"
            #expect(try await call(client, .get, path, as: "bob").status == .ok)
            #expect(try await call(client, .get, path, as: "dan").problem?.code == "not_found", "a block hides it")
            #expect(try await call(client, .patch, path, as: "bob", json: #"{"note":"mine"}"#).status == .notFound)
            let date = try await call(client, .patch, path, as: "ann", json: #"{"visitedOn":"2024-02-30"}"#)
            #expect(date.problem?.code == "invalid_visited_on")
            let color = try await call(client, .put, path + "/color", as: "bob", json: #"{"color":"red"}"#)
            #expect(color.problem?.detail == "color: must be a colour as #rrggbb.")
            let listed = try await call(client, .get, GeoPaths.pins + "?userId=ann", as: "dan")
            #expect(listed.status == .ok, "a blocked owner reads as one without pins")
        }
    }

    @Test func photosAreTheOwnersAndServedWithOneCachePolicy() async throws {
        let pin = try await pin("ann")
        let png = ByteBuffer(data: TestImages.png())
        try await app().test(.router) { client async throws in
            let photos = GeoPaths.pins + "/\(pin)/photos"
            #expect(try await call(client, .post, photos, as: "bob", body: png).status == .notFound)
            let uploaded = try await client.execute(
                uri: photos, method: .post, headers: [.authorization: "Bearer ann"], body: png
            ) { try JSONDecoder().decode([String: AnyCodable].self, from: Data($0.body.readableBytesView)) }
            let url = try #require(uploaded["url"]?.string)
            #expect(try await call(client, .get, url, as: "dan").status == .notFound)
            let first = try await call(client, .get, url, as: "bob")
            #expect(first.status == .ok)
            #expect(first.headers[.cacheControl] == StoredBytes.cacheControl)
            #expect(first.headers[.contentLength] == "100")
            let etag = try #require(first.headers[.eTag])
            #expect(etag == EntityTag(of: png.readableBytesView).description)
            let again = try await call(client, .get, url, as: "bob", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    // MARK: Map, places, colours, privacy

    @Test func queriesNameTheirBadParameters() async throws {
        try await app().test(.router) { client async throws in
            #expect(try await call(client, .get, GeoPaths.map, as: "ann").problem?.code == "missing_bbox")
            #expect(
                try await call(client, .get, GeoPaths.map + "?bbox=0,0,1,1&filter=all", as: "ann").problem?.code
                    == "invalid_filter")
            // spaces around the numbers are fine; an empty, non-numeric or fifth part is not
            #expect(
                try await call(client, .get, GeoPaths.map + "?bbox=%202.2%20,48.8,%092.5,48.9%20", as: "ann").status
                    == .ok)
            for bad in ["2.2,,2.5,48.9", "2.2,48.8,2.5,north", "2.2,48.8,2.5,48.9,1", "%20,48.8,2.5,48.9"] {
                #expect(
                    try await call(client, .get, GeoPaths.map + "?bbox=" + bad, as: "ann").problem?.code
                        == "invalid_bbox",
                    "\(bad)")
            }
            #expect(
                try await call(client, .get, GeoPaths.places + "?query=a", as: "ann").problem?.code == "invalid_query")
            #expect(
                try await call(client, .get, GeoPaths.visitors + "?latitude=0&longitude=0&radius=0", as: "ann")
                    .problem?.code == "invalid_radius")
            #expect(
                try await call(client, .put, GeoPaths.colors, as: "ann", json: ##"{"own":"#12"}"##).problem?.code
                    == "invalid_own")
            #expect(try await call(client, .put, GeoPaths.privacy, as: "ann", json: "{}").status == .badRequest)
        }
    }

    // MARK: Packs, posts, feed

    @Test func packsAreClosedByTheirAlphaAndFencedWhenLocked() async throws {
        let open = try await pack()
        let locked = try await pack(locked: true)
        try await app().test(.router) { client async throws in
            let close = try await call(client, .delete, GeoPaths.packs + "/\(open)", as: "bob")
            #expect(close.problem?.code == "not_alpha")
            let radius = try await call(
                client, .post, GeoPaths.packs, as: "ann",
                json: ##"{"name":"X","latitude":0,"longitude":0,"radiusMeters":1,"tags":["a"],"color":"#000000"}"##)
            #expect(radius.problem?.code == "invalid_radius_meters")
            let blind = try await call(client, .put, GeoPaths.packs + "/\(locked)/membership", as: "bob")
            #expect(
                blind.problem?.detail
                    == "This pack is locked to its area: send your location in the Geo-Position header.")
            let far = try await call(
                client, .put, GeoPaths.packs + "/\(locked)/membership", as: "bob", headers: Self.outside)
            #expect(far.problem?.code == "outside_geofence")
            #expect(
                try await call(
                    client, .put, GeoPaths.packs + "/\(locked)/membership", as: "bob", headers: Self.inside
                ).status == .ok)
            #expect(try await call(client, .delete, GeoPaths.packs + "/\(open)", as: "admin").status == .noContent)
            #expect(try await call(client, .get, GeoPaths.packs + "/\(open)", as: "ann").status == .notFound)
        }
    }

    @Test func postsNeedMembershipAndBelongToTheirWriters() async throws {
        let pack = try await pack()
        try await app().test(.router) { client async throws in
            let posts = GeoPaths.packs + "/\(pack)/posts"
            let stranger = try await call(client, .post, posts, as: "bob", json: #"{"title":"Hi","body":"Hello"}"#)
            #expect(stranger.problem?.detail == "Join the pack to post in it.")
            #expect(
                try await call(client, .post, posts, as: "ann", json: #"{"title":" "}"#).problem?.code
                    == "invalid_title")
            let created = try await client.execute(
                uri: posts, method: .post,
                headers: [.authorization: "Bearer ann", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"Hi","body":"Hello"}"#)
            ) { try JSONDecoder().decode([String: AnyCodable].self, from: Data($0.body.readableBytesView)) }
            let id = try #require(created["id"]?.string)
            let post = GeoPaths.posts + "/\(id)"
            #expect(
                try await call(client, .put, post + "/vote", as: "ann", json: #"{"value":1}"#).problem?.code
                    == "own_post")
            #expect(
                try await call(client, .put, post + "/vote", as: "ann", json: #"{"value":2}"#).problem?.code
                    == "invalid_value")
            let delete = try await call(client, .delete, post, as: "bob")
            #expect(delete.problem?.detail == "Only its writer or the pack's alpha can delete a post.")
            #expect(try await call(client, .get, posts + "?sort=hot", as: "ann").problem?.code == "invalid_sort")
            #expect(try await call(client, .get, GeoPaths.posts + "/999", as: "ann").status == .notFound)
        }
    }

    @Test func theFeedAndDiscoverReadThePositionHeader() async throws {
        try await app().test(.router) { client async throws in
            #expect(
                try await call(client, .get, GeoPaths.discover + "/packs", as: "ann").problem?.code
                    == "missing_position")
            let bad = try await call(
                client, .get, GeoPaths.feed, as: "ann", headers: [HTTPField.Name("Geo-Position")!: "north;east"])
            #expect(bad.problem?.code == "invalid_position")
            #expect(
                try await call(client, .get, GeoPaths.feed + "?sort=hot", as: "ann").problem?.code == "invalid_sort")
        }
    }

    // MARK: Errors

    @Test(arguments: [
        (GeoError.notFound("The pin"), 404, "not_found", "The pin was not found."),
        (.invalidField("tags", "choose at least one tag."), 400, "invalid_tags", "tags: choose at least one tag."),
        (.tooManyPins, 409, "too_many_pins", "You already have 10000 pins."),
        (.tooManyColors, 409, "too_many_colors", "You already chose colours for too many pins."),
        (.tooManyPhotos, 409, "too_many_photos", "A pin has at most 10 photos."),
        (.tooManyTrips, 409, "too_many_trips", "You already have 500 trips."),
        (.tooManyLivePacks, 409, "too_many_packs", "You are the alpha of 5 live packs already."),
        (.tooManyMemberships, 409, "too_many_packs", "You are in 100 packs already; leave one first."),
        (.notInPack, 409, "not_a_member", "You are not in this pack."),
        (.joinToWrite(action: "vote"), 403, "not_a_member", "Join the pack to vote in it."),
        (.ownPost, 403, "own_post", "You cannot vote on your own post."),
        (.ownPin, 403, "own_pin", "You cannot react to your own pin."),
        (.friendsOnly, 403, "friends_only", "Only the pin's owner's friends can react to it."),
        (.notAlpha, 403, "not_alpha", "Only the pack's alpha (while a member) or an admin can do this."),
        (.notYours(thing: "comment"), 403, "not_yours", "Only its writer or the pack's alpha can delete a comment."),
        (
            .outsideGeofence(positionSent: true), 403, "outside_geofence",
            "This pack is locked to its area, and you are outside it."
        ),
    ])
    func everyErrorHasItsProblem(error: GeoError, status: Int, code: String, detail: String) {
        #expect(error.problem.statusCode == status)
        #expect(error.problem.code == code)
        #expect(error.problem.detail == detail)
    }
}

/// Enough of a JSON value to read an id out of an answer.
struct AnyCodable: Decodable {
    var string: String?

    init(from decoder: any Decoder) throws {
        string = try? decoder.singleValueContainer().decode(String.self)
    }
}
