import Foundation
import GeoService
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// The map through the gateway: colours relative to each viewer, per-user colour choices, filters,
/// boxes across the antimeridian, clusters at low zoom.
@Suite struct GeoMapTests {
    @Test func eachViewerSeesRedOwnBlueFriendsAndGreenOthers() async throws {
        try await GeoWorld.run { world in
            // given: ann and bob are friends, cat is a stranger
            let ann = try await world.pin(world.ann, 35.68, 139.69, "Tokyo")
            let bob = try await world.pin(world.bob, 35.69, 139.70, "Tokyo")
            let cat = try await world.pin(world.cat, 35.67, 139.71, "Tokyo")
            let box = "139,35,140,36"
            // when
            let annSees = try await world.map(world.ann, bbox: box, zoom: 16)
            let bobSees = try await world.map(world.bob, bbox: box, zoom: 16)
            let catSees = try await world.map(world.cat, bbox: box, zoom: 16)
            // then
            #expect(annSees[ann]?.category == "own")
            #expect(annSees[ann]?.color == "#e53935")
            #expect(annSees[bob]?.category == "friend")
            #expect(annSees[bob]?.color == "#1e88e5")
            #expect(annSees[cat]?.category == "other")
            #expect(annSees[cat]?.color == "#43a047")
            #expect(bobSees[bob]?.category == "own")
            #expect(bobSees[ann]?.category == "friend")
            #expect(catSees[ann]?.category == "other")
            #expect(catSees[cat]?.category == "own")
        }
    }

    @Test func colourChoicesApplyOnlyToTheViewerWhoMadeThem() async throws {
        try await GeoWorld.run { world in
            // given
            let bob = try await world.pin(world.bob, 10, 10)
            let cat = try await world.pin(world.cat, 10.1, 10.1)
            let other = try await world.pin(world.cat, 10.2, 10.2)
            // when: ann recolours friends' pins and one of cat's pins
            let colors = try await world.api.send(
                .PUT, GeoPaths.colors, token: world.ann.accessToken, json: ["friend": "#00FFAA"])
            let scheme = try colors.decode(WirePinColors.self)
            #expect(scheme.friend == "#00ffaa")
            #expect(scheme.own == "#e53935")
            let chosen = try await world.api.send(
                .PUT, GeoPaths.pins + "/\(cat)/color", token: world.ann.accessToken, json: ["color": "#123456"])
            #expect(try chosen.decode(WirePin.self).color == "#123456")
            // then
            let annSees = try await world.map(world.ann, bbox: "9,9,11,11", zoom: 15)
            #expect(annSees[bob]?.color == "#00ffaa")
            #expect(annSees[cat]?.color == "#123456")
            #expect(annSees[other]?.color == "#43a047")
            let danSees = try await world.map(world.dan, bbox: "9,9,11,11", zoom: 15)
            #expect(danSees[cat]?.color == "#43a047")
            #expect(danSees[bob]?.color == "#43a047")
            // a bad colour is a 400; clearing the pin's colour falls back to the category's
            let bad = try await world.api.send(
                .PUT, GeoPaths.pins + "/\(cat)/color", token: world.ann.accessToken, json: ["color": "red"])
            #expect(bad.problem?.code == "invalid_color")
            #expect(
                try await world.api.delete(GeoPaths.pins + "/\(cat)/color", token: world.ann.accessToken).status == 204)
            #expect(try await world.map(world.ann, bbox: "9,9,11,11", zoom: 15)[cat]?.color == "#43a047")
        }
    }

    @Test func filtersShowMineMineAndFriendsOrEveryone() async throws {
        try await GeoWorld.run { world in
            let ann = try await world.pin(world.ann, -33.86, 151.20)
            let bob = try await world.pin(world.bob, -33.87, 151.21)
            let cat = try await world.pin(world.cat, -33.88, 151.22)
            let box = "151,-34,152,-33"
            #expect(Set(try await world.map(world.ann, bbox: box, zoom: 16, filter: "mine").keys) == [ann])
            #expect(Set(try await world.map(world.ann, bbox: box, zoom: 16, filter: "friends").keys) == [ann, bob])
            #expect(Set(try await world.map(world.ann, bbox: box, zoom: 16).keys) == [ann, bob, cat])
            let bad = try await world.api.get(
                GeoPaths.map + "?bbox=\(box)&filter=enemies", token: world.ann.accessToken)
            #expect(bad.problem?.code == "invalid_filter")
        }
    }

    @Test func aBoxAcrossTheAntimeridianFindsPinsOnBothSides() async throws {
        try await GeoWorld.run { world in
            // given: Fiji on both sides of 180°, and Greenwich
            let east = try await world.pin(world.ann, -17.8, 179.5, "Taveuni")
            let west = try await world.pin(world.bob, -16.5, -179.8, "Rabi")
            _ = try await world.pin(world.cat, 51.48, 0, "Greenwich")
            // when: west 179 > east -179
            let points = try await world.map(world.ann, bbox: "179,-20,-179,-15", zoom: 14)
            let clusters = try await world.map(world.ann, bbox: "170,-30,-170,0", zoom: 3)
            // then
            #expect(Set(points.keys) == [east, west])
            let counted = clusters.values.reduce(0) { $0 + ($1.pointCount ?? 1) }
            #expect(counted == 2)
            #expect(clusters.values.allSatisfy { $0.userId != world.cat.id })
        }
    }

    @Test func zoomedOutPinsAreClusteredWithCountsPerCategory() async throws {
        try await GeoWorld.run { world in
            // given: a dozen pins around Paris, and one in New York
            for index in 0..<5 { try await world.pin(world.ann, 48.85 + Double(index) * 0.01, 2.35) }
            for index in 0..<4 { try await world.pin(world.bob, 48.80 + Double(index) * 0.01, 2.30) }
            for index in 0..<3 { try await world.pin(world.cat, 48.90, 2.40 + Double(index) * 0.01) }
            let newYork = try await world.pin(world.cat, 40.71, -74.0, "New York")
            // when
            let response = try await world.api.get(
                GeoPaths.map + "?bbox=-180,-85,180,85&zoom=2", token: world.ann.accessToken)
            // then
            let map = try response.decode(WireMap.self)
            #expect(map.clustered == true)
            let features = map.features
            let properties = features.map(\.properties)
            let paris = try #require(properties.first { $0.cluster })
            #expect(paris.pointCount == 12)
            #expect(paris.ownCount == 5)
            #expect(paris.friendCount == 4)
            #expect(paris.otherCount == 3)
            #expect(paris.category == "own")
            #expect(properties.contains { $0.pinId == newYork && $0.category == "other" })
            #expect(features.count == 2)
            let coordinates = try #require(features.first?.geometry.coordinates)
            #expect(coordinates.count == 2)
            // mine only, clustered in memory on the same grid
            let mine = try await world.map(world.ann, bbox: "-180,-85,180,85", zoom: 2, filter: "mine")
            #expect(mine.count == 1)
            #expect(mine.values.first?.pointCount == 5)
            // deleting a pin updates the counts
            let bobsPins = try await world.api.get(GeoPaths.pins, token: world.bob.accessToken)
            let first = try #require(try bobsPins.decode(WirePage<WirePin>.self).items.first?.id)
            #expect(try await world.api.delete(GeoPaths.pins + "/\(first)", token: world.bob.accessToken).status == 204)
            let after = try await world.map(world.ann, bbox: "-180,-85,180,85", zoom: 2)
            #expect(after.values.contains { $0.pointCount == 11 && $0.friendCount == 3 })
        }
    }

    @Test func pinsOfUsersBlockedEitherWayAreNotEvenCounted() async throws {
        try await GeoWorld.run { world in
            // given: Paris with two of cat's pins and three of dan's; Tokyo with one of cat's and one of dan's;
            // Lima with only dan's
            for index in 0..<2 { try await world.pin(world.cat, 48.85 + Double(index) * 0.01, 2.35) }
            for index in 0..<3 { try await world.pin(world.dan, 48.86 + Double(index) * 0.01, 2.36) }
            let tokyo = try await world.pin(world.cat, 35.68, 139.69, "Tokyo")
            try await world.pin(world.dan, 35.69, 139.70, "Tokyo")
            try await world.pin(world.dan, -12.05, -77.04, "Lima")
            // Sydney: seventeen of dan's pins, then one of cat's
            for index in 0..<17 { try await world.pin(world.dan, -33.80 - Double(index) * 0.01, 151.2, "Sydney") }
            let sydney = try await world.pin(world.cat, -33.87, 151.21, "Sydney")
            let world2 = "-180,-85,180,85"
            let before = try await world.map(world.ann, bbox: world2, zoom: 2)
            #expect(before.values.map { $0.pointCount ?? 1 }.sorted() == [1, 2, 5, 18])
            // when: dan blocks ann (the other way round hides them just the same)
            try await world.block(world.dan, world.ann)
            // then
            let after = try await world.map(world.ann, bbox: world2, zoom: 2)
            #expect(after.values.contains { $0.pointCount == 2 && $0.otherCount == 2 })
            #expect(after[tokyo]?.category == "other", "a cell left with one pin shows that pin")
            #expect(after[sydney]?.category == "other", "found past the blocked user's pins")
            #expect(after.count == 3, "Lima's cell held only dan's pin")
            #expect(!after.values.contains { $0.userId == world.dan.id })
            // bob, not blocked, still counts everyone
            let bobs = try await world.map(world.bob, bbox: world2, zoom: 2)
            #expect(bobs.values.map { $0.pointCount ?? 1 }.sorted() == [1, 2, 5, 18])
        }
    }
}

/// Geo's copy of the social graph, fed by social's change feed (as the local stack and compose run it): a map
/// read after unfriending, blocking or befriending shows the change, never an answer kept from before it.
@Suite struct GeoKeptGraphTests {
    @Test func theMapFollowsUnfriendingBlockingAndBefriending() async throws {
        try await GeoWorld.run(keptGraph: true) { world in
            let bob = try await world.pin(world.bob, 48.14, 11.58, "Munich")
            let dan = try await world.pin(world.dan, 48.15, 11.57, "Munich")
            let box = "11,48,12,49"
            func annSees() async throws -> [String: WireMap.Properties] {
                try await world.map(world.ann, bbox: box, zoom: 16)
            }
            // Once social's feed reaches geo, the copy answers: read repeatedly, still right.
            let geo = world.stack.direct(.geo)
            #expect(
                try await eventually {
                    try await geo.get("/metrics", headers: [("Authorization", "Bearer \(world.stack.metricsToken)")]).text.contains("\nsocial_graph_copy_live 1")
                })
            for _ in 0..<3 { #expect(try await annSees()[bob]?.category == "friend") }
            #expect(try await geo.get("/metrics", headers: [("Authorization", "Bearer \(world.stack.metricsToken)")]).text.contains("\nsocial_graph_copy_users 1"))
            // bob unfriends ann
            let unfriended = try await world.api.delete(
                SocialPaths.friends + "/\(world.ann.id)", token: world.bob.accessToken)
            #expect(unfriended.status == 204)
            #expect(try await eventually { try await annSees()[bob]?.category == "other" })
            // dan blocks ann: his pin leaves her map, hers leaves his, in clusters too
            #expect(try await annSees()[dan]?.category == "other")
            try await world.block(world.dan, world.ann)
            #expect(try await eventually { try await annSees()[dan] == nil })
            let zoomedOut = try await world.map(world.ann, bbox: box, zoom: 9)
            #expect(!zoomedOut.values.contains { $0.userId == world.dan.id })
            // ann and dan make up and become friends
            #expect(
                try await world.api.delete(SocialPaths.blocks + "/\(world.ann.id)", token: world.dan.accessToken)
                    .status == 204)
            try await world.befriend(world.ann, world.dan)
            #expect(try await eventually { try await annSees()[dan]?.category == "friend" })
            // once settled, the copy answers with the change and keeps answering it
            for _ in 0..<3 { #expect(try await annSees()[dan]?.category == "friend") }
            #expect(try await annSees()[bob]?.category == "other")
        }
    }
}

/// When the social service cannot be reached, routes that need it answer 503 with a problem body; my own
/// pins still show.
@Suite struct GeoSocialOutageTests {
    /// Asking social each time, or keeping a copy (whose feed cannot start either).
    @Test(arguments: [false, true]) func anUnreachableSocialGraphIsA503NotA500(keptGraph: Bool) async throws {
        try await withTestStack(services: [
            .geo: { settings in
                try await buildGeoApplication(
                    GeoConfiguration(
                        settings: settings, socialURL: "http://127.0.0.1:1",
                        socialGraph: keptGraph
                            ? nil : SocialGraphClient(address: "http://127.0.0.1:1", token: settings.internalToken),
                        loadGazetteer: false))
            }
        ]) { stack in
            let ann = try await stack.register("ann")
            let pin = try await stack.gateway.post(
                GeoPaths.pins, token: ann.accessToken,
                json: GeoWorld.NewPin(latitude: 1, longitude: 1, placeName: "Gulf of Guinea"))
            #expect(pin.status == 201)
            let world = try await stack.gateway.get(
                GeoPaths.map + "?bbox=-180,-85,180,85&zoom=2", token: ann.accessToken)
            #expect(world.status == 503)
            #expect(world.problem?.code == "service_unavailable")
            let mine = try await stack.gateway.get(
                GeoPaths.map + "?bbox=-180,-85,180,85&zoom=2&filter=mine", token: ann.accessToken)
            #expect(mine.status == 200)
        }
    }
}
