import Foundation
import PlatformKit
import TestSupport
import Testing

/// Place search in the shipped gazetteer, pins from a confirmed place, and who visited it.
@Suite struct GeoPlaceTests {
    static func names(_ response: APIResponse) -> [String] {
        (response.object["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func first(_ response: APIResponse) -> [String: Any] {
        (response.object["items"] as? [[String: Any]])?.first ?? [:]
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
            #expect(Self.first(try await search("zurich"))["name"] as? String == "Zürich")
            #expect(Self.first(try await search("ZÜRICH"))["countryCode"] as? String == "CH")
            #expect(Self.first(try await search("Sao Paulo"))["countryCode"] as? String == "BR")
            // alternate names: the native spelling finds the English one
            let munich = Self.first(try await search("München"))
            #expect(munich["name"] as? String == "Munich")
            #expect(munich["matchedName"] as? String == "München")
            // the biggest place of a name comes first
            let paris = Self.first(try await search("paris"))
            #expect(paris["countryCode"] as? String == "FR")
            // typing a prefix
            #expect(Self.first(try await search("Barcel"))["name"] as? String == "Barcelona")
            // typos
            #expect(Self.first(try await search("Barcleona"))["name"] as? String == "Barcelona")
            #expect(Self.first(try await search("Amsterdma"))["name"] as? String == "Amsterdam")
            #expect(Self.first(try await search("Reykjavik"))["countryCode"] as? String == "IS")
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
            let lisbon = Self.first(
                try await world.api.get(GeoPaths.places + "?query=lisboa", token: world.ann.accessToken))
            let placeID = try #require(lisbon["id"] as? Int)
            let pin = try await world.api.post(
                GeoPaths.pins, token: world.cat.accessToken, json: GeoWorld.NewPin(placeId: Int64(placeID)))
            #expect(pin.status == 201)
            #expect(pin.object["placeName"] as? String == "Lisbon")
            #expect(pin.object["countryCode"] as? String == "PT")
            // raw coordinates get their country from the nearest city
            let raw = try await world.api.post(
                GeoPaths.pins, token: world.bob.accessToken,
                json: GeoWorld.NewPin(latitude: 38.71, longitude: -9.13, placeName: "Alfama"))
            #expect(raw.object["countryCode"] as? String == "PT")
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
            let items = visitors.object["items"] as? [[String: Any]] ?? []
            #expect(items.compactMap { ($0["user"] as? [String: Any])?["username"] as? String } == ["bob", "cat"])
            #expect(items.compactMap { $0["friend"] as? Bool } == [true, false])
            #expect(items.last?["pinCount"] as? Int == 2)
            #expect(visitors.object["friendCount"] as? Int == 1)
            #expect(visitors.object["otherCount"] as? Int == 1)
            #expect((visitors.object["place"] as? [String: Any])?["name"] as? String == "Lisbon")
            // pages
            let firstPage = try await world.api.get(
                GeoPaths.visitors + "?placeId=\(placeID)&limit=1", token: world.ann.accessToken)
            let cursor = try #require(firstPage.object["nextCursor"] as? String)
            let second = try await world.api.get(
                GeoPaths.visitors + "?placeId=\(placeID)&limit=1&cursor=\(cursor)", token: world.ann.accessToken)
            #expect(
                (second.object["items"] as? [[String: Any]])?.compactMap {
                    ($0["user"] as? [String: Any])?["username"] as? String
                } == ["cat"])
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
                #expect(set.object["listedToStrangers"] as? Bool == false)
            }
            #expect(
                try await world.api.get(GeoPaths.privacy, token: world.cat.accessToken).object["listedToStrangers"]
                    as? Bool == false)
            // when
            let visitors = try await world.api.get(
                GeoPaths.visitors + "?latitude=-13.53&longitude=-71.97&radius=5000", token: world.ann.accessToken)
            // then: bob is a friend, so he is named; cat is only counted
            let names = (visitors.object["items"] as? [[String: Any]] ?? []).compactMap {
                ($0["user"] as? [String: Any])?["username"] as? String
            }
            #expect(names == ["bob"])
            #expect(visitors.object["hiddenCount"] as? Int == 1)
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
                let pins = map.filter { $0.value["cluster"] as? Bool == false }
                // then her friend is named, the stranger who opted out is shown but not named, dan (listed) is
                if zoom == 15 {
                    #expect(pins[bobPin]?["userId"] as? String == world.bob.id)
                    #expect(pins[catPin] != nil)
                    #expect(pins[danPin]?["userId"] as? String == world.dan.id)
                }
                #expect(!map.values.contains { $0["userId"] as? String == world.cat.id })
            }
            // the pin by id carries no owner for ann, and cat's pins cannot be listed by cat's id
            let shown = try await world.api.get(GeoPaths.pins + "/\(catPin)", token: world.ann.accessToken)
            #expect(shown.status == 200)
            #expect(shown.object["userId"] == nil)
            #expect(!shown.text.contains(world.cat.id))
            let listed = try await world.api.get(GeoPaths.pins + "?userId=\(world.cat.id)", token: world.ann.accessToken)
            #expect(listed.status == 200)
            #expect((listed.object["items"] as? [[String: Any]])?.isEmpty == true)
            // friends still see bob's pins by his id, and cat sees her own
            let bobs = try await world.api.get(GeoPaths.pins + "?userId=\(world.bob.id)", token: world.ann.accessToken)
            #expect((bobs.object["items"] as? [[String: Any]])?.count == 1)
            let own = try await world.api.get(GeoPaths.pins + "/\(catPin)", token: world.cat.accessToken)
            #expect(own.object["userId"] as? String == world.cat.id)
        }
    }
}
