import Foundation
import GeoService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// A stack with the social and geo services, and four users: ann and bob are friends, cat is a stranger
/// to both, dan is whoever a test blocks.
struct GeoWorld {
    let stack: TestStack
    let ann: TestUser, bob: TestUser, cat: TestUser, dan: TestUser
    var api: APIClient { stack.gateway }

    /// Runs `body` in a fresh world; `configure` adjusts the geo service's configuration (jobs, limits, notices).
    /// With `gazetteer`, geo loads the test gazetteer (``TestGazetteer``).
    /// By default geo asks social on every read; with `keptGraph`, it keeps a copy fed by social's change feed,
    /// as in production (then a change reaches geo a moment after social answers: see `eventually(within:_:)`).
    /// `postgres` and `replicas` are ``withTestStack``'s (a test of several geo replicas names geo in both).
    static func run(
        gazetteer: Bool = false, keptGraph: Bool = false, postgres: Set<ServiceName> = TestStack.postgresByDefault,
        replicas: [ServiceName: Int] = [:],
        configure: @escaping @Sendable (inout GeoConfiguration) -> Void = { _ in },
        _ body: (GeoWorld) async throws -> Void
    ) async throws {
        let social = LateServiceURL()
        try await withTestStack(
            services: [
                .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) },
                .geo: { settings in
                    var configuration = GeoConfiguration(
                        settings: settings, socialURL: .late { social.url },
                        socialGraph: keptGraph
                            ? nil : SocialGraphClient(address: .late { social.url }, token: settings.internalToken),
                        loadGazetteer: gazetteer, gazetteerFile: gazetteer ? try TestGazetteer.path() : nil)
                    configure(&configuration)
                    return try await buildGeoApplication(configuration)
                },
            ], postgres: postgres, replicas: replicas
        ) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            let world = GeoWorld(
                stack: stack, ann: try await stack.register("ann"), bob: try await stack.register("bob"),
                cat: try await stack.register("cat"), dan: try await stack.register("dan"))
            try await world.befriend(world.ann, world.bob)
            try await body(world)
        }
    }

    func befriend(_ a: TestUser, _ b: TestUser) async throws {
        let sent = try await api.post(SocialPaths.friendRequests, token: a.accessToken, json: ["userId": b.id])
        let id = try sent.decode(WireCreated.self).id
        #expect(try await api.post("\(SocialPaths.friendRequests)/\(id)/accept", token: b.accessToken).status == 200)
    }

    func block(_ blocker: TestUser, _ blocked: TestUser) async throws {
        let response = try await api.send(.PUT, "\(SocialPaths.blocks)/\(blocked.id)", token: blocker.accessToken)
        #expect(response.status == 204)
    }

    struct NewPin: Encodable, Sendable {
        var latitude: Double?
        var longitude: Double?
        var placeName: String?
        var placeId: Int64?
        var note: String?
        var visitedOn: String?
    }

    /// Pins a place and returns the pin's id.
    @discardableResult
    func pin(_ user: TestUser, _ latitude: Double, _ longitude: Double, _ name: String = "Somewhere") async throws
        -> String
    {
        let response = try await api.post(
            GeoPaths.pins, token: user.accessToken,
            json: NewPin(latitude: latitude, longitude: longitude, placeName: name))
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WirePin.self).id
    }

    /// The map's features' properties for a viewer, keyed by pin id (single pins) or cluster id.
    func map(_ viewer: TestUser, bbox: String, zoom: Int? = nil, filter: String? = nil) async throws
        -> [String: WireMap.Properties]
    {
        var path = GeoPaths.map + "?bbox=\(bbox)"
        if let zoom { path += "&zoom=\(zoom)" }
        if let filter { path += "&filter=\(filter)" }
        let response = try await api.get(path, token: viewer.accessToken)
        #expect(response.status == 200, "\(response.text)")
        let map = try response.decode(WireMap.self)
        #expect(map.type == "FeatureCollection")
        var features: [String: WireMap.Properties] = [:]
        for feature in map.features {
            #expect(!features.keys.contains(feature.id), "feature \(feature.id) twice")
            features[feature.id] = feature.properties
        }
        return features
    }
}

extension TestUser {
    /// Whether `body` names this user: their id or e-mail anywhere, their username as a whole word (a pseudonym such
    /// as "Electric Bobcat" does not name bob).
    func isNamed(in body: String) -> Bool {
        body.localizedCaseInsensitiveContains(id) || body.localizedCaseInsensitiveContains(email)
            || body.range(
                of: "\\b" + NSRegularExpression.escapedPattern(for: username) + "\\b",
                options: [.regularExpression, .caseInsensitive]) != nil
    }
}
