import Foundation
import PlatformKit
import TestSupport
import Testing

/// Place search in the test gazetteer (the shipped one's places these tests name, and the biggest), pins from a
/// confirmed place, and who visited it.
@Suite struct GeoPlaceTests {
    /// The best match of a place search.
    static func first(_ response: APIResponse) throws -> WirePlace {
        try #require(try response.decode(WireItems<WirePlace>.self).items.first)
    }

    @Test func searchIgnoresAccentsAndCaseAndForgivesTypos() async throws {
        try await GeoWorld.run(gazetteer: true) { world in
            func search(_ query: String) async throws -> APIResponse {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
                let response = try await world.api.get(
                    GeoPaths.places + "?query=\(encoded)&limit=5", token: world.ann.accessToken)
                #expect(response.status == 200, "\(query): \(response.text)")
                return response
            }
            // accents either way
            #expect(try Self.first(try await search("zurich")).name == "Zürich")
            #expect(try Self.first(try await search("ZÜRICH")).countryCode == "CH")
            #expect(try Self.first(try await search("Sao Paulo")).countryCode == "BR")
            // alternate names: the native spelling finds the English one
            let munich = try Self.first(try await search("München"))
            #expect(munich.name == "Munich")
            #expect(munich.matchedName == "München")
            // the biggest place of a name comes first
            let paris = try Self.first(try await search("paris"))
            #expect(paris.countryCode == "FR")
            // typing a prefix
            #expect(try Self.first(try await search("Barcel")).name == "Barcelona")
            // typos
            #expect(try Self.first(try await search("Barcleona")).name == "Barcelona")
            #expect(try Self.first(try await search("Amsterdma")).name == "Amsterdam")
            #expect(try Self.first(try await search("Reykjavik")).countryCode == "IS")
            // bad queries
            let empty = try await world.api.get(GeoPaths.places + "?query=", token: world.ann.accessToken)
            #expect(empty.status == 400)
            let short = try await world.api.get(GeoPaths.places + "?query=a", token: world.ann.accessToken)
            #expect(short.problem?.code == "invalid_query")
            let syntax = try await search("\"OR* NEAR(")
            #expect(syntax.status == 200)
        }
    }

    @Test func aConfirmedPlaceBecomesAPinAndItsVisitorsAreListedFriendsFirst() async throws {
        try await GeoWorld.run(gazetteer: true) { world in
            // given: a candidate the client confirms
            let lisbon = try Self.first(
                try await world.api.get(GeoPaths.places + "?query=lisboa", token: world.ann.accessToken))
            let placeID = lisbon.id
            let pin = try await world.api.post(
                GeoPaths.pins, token: world.cat.accessToken, json: GeoWorld.NewPin(placeId: placeID))
            #expect(pin.status == 201)
            let pinned = try pin.decode(WirePin.self)
            #expect(pinned.placeName == "Lisbon")
            #expect(pinned.countryCode == "PT")
            // raw coordinates get their country from the nearest city
            let raw = try await world.api.post(
                GeoPaths.pins, token: world.bob.accessToken,
                json: GeoWorld.NewPin(latitude: 38.71, longitude: -9.13, placeName: "Alfama"))
            #expect(try raw.decode(WirePin.self).countryCode == "PT")
            try await world.pin(world.cat, 38.72, -9.14, "Baixa")
            try await world.pin(world.dan, 38.73, -9.15, "Bairro Alto")
            try await world.pin(world.ann, 38.70, -9.16, "Belém")
            try await world.block(world.ann, world.dan)
            let unknown = try await world.api.post(
                GeoPaths.pins, token: world.ann.accessToken, json: GeoWorld.NewPin(placeId: 1))
            #expect(unknown.problem?.code == "invalid_place_id")
            // when
            let visitors = try await world.api.get(
                GeoPaths.visitors + "?placeId=\(placeID)", token: world.ann.accessToken)
            // then: bob (friend) first, then cat (two pins); dan (blocked) and ann herself left out
            #expect(visitors.status == 200)
            let answer = try visitors.decode(WireVisitors.self)
            let items = answer.items
            #expect(items.map(\.user.username) == ["bob", "cat"])
            #expect(items.map(\.friend) == [true, false])
            #expect(items.last?.pinCount == 2)
            #expect(answer.friendCount == 1)
            #expect(answer.otherCount == 1)
            #expect(answer.place?.name == "Lisbon")
            // pages
            let firstPage = try await world.api.get(
                GeoPaths.visitors + "?placeId=\(placeID)&limit=1", token: world.ann.accessToken)
            let cursor = try #require(try firstPage.decode(WireVisitors.self).nextCursor)
            let second = try await world.api.get(
                GeoPaths.visitors + "?placeId=\(placeID)&limit=1&cursor=\(cursor)", token: world.ann.accessToken)
            #expect(try second.decode(WireVisitors.self).items.map(\.user.username) == ["cat"])
            let badRadius = try await world.api.get(
                GeoPaths.visitors + "?latitude=0&longitude=0&radius=1000000", token: world.ann.accessToken)
            #expect(badRadius.problem?.code == "invalid_radius")
            let badPoint = try await world.api.get(
                GeoPaths.visitors + "?latitude=NaN&longitude=0", token: world.ann.accessToken)
            #expect(badPoint.problem?.code == "invalid_latitude")
            // Issue 16: a forged offset of Int.max trapped on `offset + limit`.
            for forged in [
                PageCursor.encode(Int.max), PageCursor.encode(OffsetCursor(offset: .max)), PageCursor.encode(-1),
            ] {
                let response = try await world.api.get(
                    GeoPaths.visitors + "?latitude=0&longitude=0&cursor=\(forged)", token: world.ann.accessToken)
                #expect(response.problem?.code == "invalid_cursor")
            }
        }
    }
}

/// Strangers who asked not to be named are counted in who-visited lists, not listed; friends still see them.
@Suite struct GeoVisitorPrivacyTests {
    @Test func strangersWhoOptedOutAreCountedButNotNamed() async throws {
        try await GeoWorld.run { world in
            // given: bob (ann's friend) and cat (a stranger to ann) both pinned Cusco; both opt out
            try await world.pin(world.bob, -13.53, -71.97, "Cusco")
            try await world.pin(world.cat, -13.52, -71.98, "Cusco")
            for user in [world.bob, world.cat] {
                let set = try await world.api.send(
                    .PUT, GeoPaths.privacy, token: user.accessToken, json: ["listedToStrangers": false])
                #expect(try set.decode(WireGeoPrivacy.self).listedToStrangers == false)
            }
            #expect(
                try await world.api.get(GeoPaths.privacy, token: world.cat.accessToken).decode(WireGeoPrivacy.self)
                    .listedToStrangers == false)
            // when
            let visitors = try await world.api.get(
                GeoPaths.visitors + "?latitude=-13.53&longitude=-71.97&radius=5000", token: world.ann.accessToken)
            // then: bob is a friend, so he is named; cat is only counted
            let answer = try visitors.decode(WireVisitors.self)
            #expect(answer.items.map(\.user.username) == ["bob"])
            #expect(answer.hiddenCount == 1)
            let bad = try await world.api.send(
                .PUT, GeoPaths.privacy, token: world.ann.accessToken, json: ["listedToStrangers": "maybe"])
            #expect(bad.status == 400)
        }
    }

    @Test func strangersWhoOptedOutAreNotNamedOnTheMapOrInPinLists() async throws {
        try await GeoWorld.run { world in
            // given: bob (ann's friend) and cat (a stranger to ann) pinned Rome; both opt out
            let bobPin = try await world.pin(world.bob, 41.9, 12.5, "Rome")
            let catPin = try await world.pin(world.cat, 41.91, 12.5, "Rome")
            let danPin = try await world.pin(world.dan, 41.92, 12.5, "Rome")
            for user in [world.bob, world.cat] {
                let set = try await world.api.send(
                    .PUT, GeoPaths.privacy, token: user.accessToken, json: ["listedToStrangers": false])
                #expect(set.status == 200)
            }
            // when ann looks at the map (single pins and lone pins among clusters)
            for zoom in [15, 9] {
                let map = try await world.map(world.ann, bbox: "12,41,13,42", zoom: zoom)
                let pins = map.filter { !$0.value.cluster }
                // then her friend is named, the stranger who opted out is shown but not named, dan (listed) is
                if zoom == 15 {
                    #expect(pins[bobPin]?.userId == world.bob.id)
                    #expect(pins.keys.contains(catPin))
                    #expect(pins[danPin]?.userId == world.dan.id)
                }
                #expect(!map.values.contains { $0.userId == world.cat.id })
            }
            // the pin by id carries no owner for ann, and cat's pins cannot be listed by cat's id
            let shown = try await world.api.get(GeoPaths.pins + "/\(catPin)", token: world.ann.accessToken)
            #expect(shown.status == 200)
            #expect(try shown.decode(WirePin.self).userId == nil)
            #expect(!shown.text.contains(world.cat.id))
            let listed = try await world.api.get(
                GeoPaths.pins + "?userId=\(world.cat.id)", token: world.ann.accessToken)
            #expect(listed.status == 200)
            #expect(try listed.decode(WirePage<WirePin>.self).items.isEmpty)
            // friends still see bob's pins by his id, and cat sees her own
            let bobs = try await world.api.get(GeoPaths.pins + "?userId=\(world.bob.id)", token: world.ann.accessToken)
            #expect(try bobs.decode(WirePage<WirePin>.self).items.count == 1)
            let own = try await world.api.get(GeoPaths.pins + "/\(catPin)", token: world.cat.accessToken)
            #expect(try own.decode(WirePin.self).userId == world.cat.id)
        }
    }
}
