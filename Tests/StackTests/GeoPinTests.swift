import Foundation
import PlatformKit
import TestSupport
import Testing

/// Pins through the gateway: adding, changing, deleting, who may see and change them, and bad input.
@Suite struct GeoPinTests {
    @Test func pinsAreAddedChangedListedAndDeletedOnlyByTheirOwner() async throws {
        try await GeoWorld.run { world in
            // given
            let id = try await world.pin(world.ann, 48.8584, 2.2945, "Eiffel Tower")
            // when
            let changed = try await world.api.patch(
                GeoPaths.pins + "/\(id)", token: world.ann.accessToken,
                json: ["note": "Windy at the top", "visitedOn": "2024-05-01"])
            // then
            #expect(changed.status == 200)
            let changedPin = try changed.decode(WirePin.self)
            #expect(changedPin.note == "Windy at the top")
            #expect(changedPin.visitedOn == "2024-05-01")
            #expect(changedPin.category == "own")
            let mine = try await world.api.get(GeoPaths.pins, token: world.ann.accessToken)
            #expect(try mine.decode(WirePage<WirePin>.self).items.map(\.id) == [id])
            let asFriend = try await world.api.get(GeoPaths.pins + "/\(id)", token: world.bob.accessToken)
            #expect(try asFriend.decode(WirePin.self).category == "friend")
            let annsPins = try await world.api.get(
                GeoPaths.pins + "?userId=\(world.ann.id)", token: world.cat.accessToken)
            #expect(try annsPins.decode(WirePage<WirePin>.self).items.first?.category == "other")
            // someone else's pin cannot be changed or deleted, and reads as missing
            let foreignEdit = try await world.api.patch(
                GeoPaths.pins + "/\(id)", token: world.bob.accessToken, json: ["note": "mine now"])
            #expect(foreignEdit.status == 404)
            #expect(try await world.api.delete(GeoPaths.pins + "/\(id)", token: world.bob.accessToken).status == 404)
            #expect(try await world.api.delete(GeoPaths.pins + "/\(id)", token: world.ann.accessToken).status == 204)
            #expect(try await world.api.get(GeoPaths.pins + "/\(id)", token: world.ann.accessToken).status == 404)
        }
    }

    /// One pin per user per place: the same gazetteer place, or a point within 25 m of one of my pins, answers
    /// the pin I have (200, same id, unchanged); a point farther away, or another user, makes a new pin.
    @Test func pinningTheSamePlaceAgainAnswersTheExistingPin() async throws {
        try await GeoWorld.run(gazetteer: true) { world in
            func post(_ user: TestUser, _ body: GeoWorld.NewPin) async throws -> (status: Int, pin: WirePin) {
                let response = try await world.api.post(GeoPaths.pins, token: user.accessToken, json: body)
                return (response.status, try response.decode(WirePin.self))
            }
            let lisbon = try #require(
                try await world.api.get(GeoPaths.places + "?query=lisboa", token: world.ann.accessToken)
                    .decode(WireItems<WirePlace>.self).items.first)
            let first = try await post(world.ann, GeoWorld.NewPin(placeId: lisbon.id, note: "first visit"))
            #expect(first.status == 201)
            // the same gazetteer place again, even with another note: the same pin, as it was
            let again = try await post(world.ann, GeoWorld.NewPin(placeId: lisbon.id, note: "second visit"))
            #expect(again.status == 200)
            #expect(again.pin.id == first.pin.id)
            #expect(again.pin.note == "first visit")
            // raw coordinates: 10 m from a pin is that pin, 100 m is a new one
            let cafe = try await post(
                world.ann, GeoWorld.NewPin(latitude: 41.1579, longitude: -8.6291, placeName: "Café"))
            #expect(cafe.status == 201)
            let metre = 1 / 111_195.0  // degrees of latitude per metre
            let jitter = try await post(
                world.ann, GeoWorld.NewPin(latitude: 41.1579 + 10 * metre, longitude: -8.6291, placeName: "Café"))
            #expect(jitter.status == 200)
            #expect(jitter.pin.id == cafe.pin.id)
            let nextDoor = try await post(
                world.ann, GeoWorld.NewPin(latitude: 41.1579 + 100 * metre, longitude: -8.6291, placeName: "Bar"))
            #expect(nextDoor.status == 201)
            #expect(nextDoor.pin.id != cafe.pin.id)
            // another traveller's pin of the same place is theirs
            let bobs = try await post(world.bob, GeoWorld.NewPin(placeId: lisbon.id))
            #expect(bobs.status == 201)
            #expect(bobs.pin.id != first.pin.id)
            let mine = try await world.api.get(GeoPaths.pins, token: world.ann.accessToken)
            #expect(try mine.decode(WirePage<WirePin>.self).items.count == 3)
        }
    }

    @Test func badCoordinatesAreRejectedWithTheFieldNamed() async throws {
        try await GeoWorld.run { world in
            let cases: [(Double, Double, String)] = [
                (90.5, 0, "invalid_latitude"), (-91, 0, "invalid_latitude"), (0, 180.01, "invalid_longitude"),
                (0, -181, "invalid_longitude"),
            ]
            for (latitude, longitude, code) in cases {
                let response = try await world.api.post(
                    GeoPaths.pins, token: world.ann.accessToken,
                    json: GeoWorld.NewPin(latitude: latitude, longitude: longitude, placeName: "Nowhere"))
                #expect(response.status == 400)
                #expect(response.problem?.code == code)
            }
            // NaN is not JSON: the body does not decode
            let nan = try await world.api.post(
                GeoPaths.pins, token: world.ann.accessToken,
                raw: #"{"latitude": NaN, "longitude": 0, "placeName": "x"}"#)
            #expect(nan.status == 400)
            #expect(nan.problem?.code == "invalid_body")
            let missing = try await world.api.post(
                GeoPaths.pins, token: world.ann.accessToken, json: ["placeName": "Nowhere"])
            #expect(missing.problem?.code == "missing_location")
            for (bbox, code) in [
                ("NaN,0,1,1", "invalid_longitude"), ("0,0,1,95", "invalid_latitude"),
                ("-190,0,0,1", "invalid_longitude"), ("0,10,1,5", "invalid_bbox"), ("1,2,3", "invalid_bbox"),
                ("a,b,c,d", "invalid_bbox"),
            ] {
                let map = try await world.api.get(GeoPaths.map + "?bbox=\(bbox)", token: world.ann.accessToken)
                #expect(map.status == 400, "bbox \(bbox)")
                #expect(map.problem?.code == code, "bbox \(bbox)")
            }
            let moved = try await world.api.patch(
                GeoPaths.pins + "/\(try await world.pin(world.ann, 1, 1))", token: world.ann.accessToken,
                json: ["latitude": 100.0, "longitude": 0.0])
            #expect(moved.problem?.code == "invalid_latitude")
            let future = try await world.api.post(
                GeoPaths.pins, token: world.ann.accessToken,
                json: GeoWorld.NewPin(latitude: 1, longitude: 1, placeName: "x", visitedOn: "2999-01-01"))
            #expect(future.problem?.code == "invalid_visited_on")
        }
    }

    @Test func aBlockHidesEachOthersPinsBothWays() async throws {
        try await GeoWorld.run { world in
            // given
            let annPin = try await world.pin(world.ann, 41.9, 12.5, "Rome")
            let danPin = try await world.pin(world.dan, 41.9, 12.51, "Rome")
            let catPin = try await world.pin(world.cat, 41.91, 12.5, "Rome")
            #expect(
                Set(try await world.map(world.ann, bbox: "12,41,13,42", zoom: 15).keys) == [annPin, danPin, catPin])
            // when
            try await world.block(world.dan, world.ann)
            // then: neither sees the other's pin, by map, by id or by user
            #expect(Set(try await world.map(world.ann, bbox: "12,41,13,42", zoom: 15).keys) == [annPin, catPin])
            #expect(Set(try await world.map(world.dan, bbox: "12,41,13,42", zoom: 15).keys) == [danPin, catPin])
            #expect(try await world.api.get(GeoPaths.pins + "/\(danPin)", token: world.ann.accessToken).status == 404)
            #expect(try await world.api.get(GeoPaths.pins + "/\(annPin)", token: world.dan.accessToken).status == 404)
            // listing the blocker's pins reads as listing someone without pins, not as an error that names the
            // block
            for (viewer, owner) in [(world.ann, world.dan), (world.dan, world.ann)] {
                let list = try await world.api.get(GeoPaths.pins + "?userId=\(owner.id)", token: viewer.accessToken)
                let nobody = try await world.api.get(
                    GeoPaths.pins + "?userId=\(UUID().uuidString.lowercased())", token: viewer.accessToken)
                #expect(list.status == 200)
                #expect(nobody.status == 200)
                let page = try list.decode(WirePage<WirePin>.self)
                #expect(page.items.isEmpty)
                #expect(page.nextCursor == nil)
            }
            // clustered views never show the blocked user's single pin either
            let zoomedOut = try await world.map(world.ann, bbox: "12,41,13,42", zoom: 9)
            #expect(!zoomedOut.values.contains { $0.userId == world.dan.id })
            let visitors = try await world.api.get(
                GeoPaths.visitors + "?latitude=41.9&longitude=12.5&radius=5000", token: world.ann.accessToken)
            let ids = try visitors.decode(WireVisitors.self).items.map(\.user.id)
            #expect(ids == [world.cat.id])
        }
    }
}
