import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import Testing

@testable import GeoService

extension GeoRouterTests {
    struct PinBody: Decodable {
        var placeName: String
        var placeId: Int64?
        var countryCode: String?
        var region: String?
    }

    /// A pin dropped on the map (coordinates alone) is named after the nearest place, with its country and region;
    /// out at sea it needs a name and gets no country.
    @Test func aPinFromCoordinatesAloneIsNamedByReverseLookup() async throws {
        // given: a gazetteer of a few villages
        let database = try await SQLiteGeoStore.open(
            .inMemory, gazetteer: try GazetteerFixture.write(GazetteerFixture.villages))
        try await app(database).test(.router) { client in
            func create(_ json: String, as user: String = "ann") async throws -> (HTTPResponse.Status, Data) {
                try await client.execute(
                    uri: GeoPaths.pins, method: .post,
                    headers: [.authorization: "Bearer \(user)", .contentType: "application/json"],
                    body: ByteBuffer(string: json)
                ) { ($0.status, Data($0.body.readableBytesView)) }
            }
            // when: a pin 2 km from Kleinmoos
            let (status, body) = try await create(#"{"latitude": 47.56, "longitude": 12.07}"#)
            // then
            #expect(status == .created)
            let pin = try JSONDecoder().decode(PinBody.self, from: body)
            #expect(pin.placeName == "Kleinmoos")
            #expect(pin.countryCode == "DE")
            #expect(pin.region == "Bavaria")
            #expect(pin.placeId == nil, "a nearby place names the pin; only a confirmed placeId links it")

            // a name given wins; the country and region still come from the nearest place
            let (_, named) = try await create(#"{"latitude": 50.58, "longitude": -4.91, "placeName": "The beach"}"#)
            let beach = try JSONDecoder().decode(PinBody.self, from: named)
            #expect(beach.placeName == "The beach" && beach.countryCode == "GB" && beach.region == "England")

            // 60 km from any village: its country and region, but no name of its own
            let (far, farBody) = try await create(#"{"latitude": 48.10, "longitude": 12.10}"#)
            #expect(far == .badRequest)
            #expect(try JSONDecoder().decode(Problem.self, from: farBody).code == "invalid_place_name")

            // out at sea: a name is needed, and no country comes with it
            let (sea, seaBody) = try await create(#"{"latitude": 40.0, "longitude": -30.0}"#)
            #expect(sea == .badRequest)
            #expect(try JSONDecoder().decode(Problem.self, from: seaBody).code == "invalid_place_name")
            let (_, boat) = try await create(#"{"latitude": 40.0, "longitude": -30.0, "placeName": "Mid-Atlantic"}"#)
            let ocean = try JSONDecoder().decode(PinBody.self, from: boat)
            #expect(ocean.placeName == "Mid-Atlantic" && ocean.countryCode == nil && ocean.region == nil)
        }
    }
}
