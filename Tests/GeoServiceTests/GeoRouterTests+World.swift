import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

extension GeoRouterTests {
    func pin(_ user: String, country: String, latitude: Double) async throws {
        _ = try await database.createPin(
            PinRecord(
                id: nil, userId: user, latitude: latitude, longitude: 10, placeName: "Somewhere", placeId: nil,
                countryCode: country, note: nil, visitedOn: nil, createdAt: now, updatedAt: now))
    }

    /// My share of the world beside my friends'; strangers and blocked users are not compared.
    @Test func theWorldShareComparesMeWithMyFriendsOnly() async throws {
        // given: ann in France and Japan; her friend bob in Brazil; cat (a stranger) and dan (blocked) elsewhere
        _ = try await pin("ann")
        try await pin("ann", country: "JP", latitude: 35)
        try await pin("bob", country: "BR", latitude: -10)
        try await pin("cat", country: "US", latitude: 40)
        try await pin("dan", country: "DE", latitude: 50)
        try await app().test(.router) { client async throws in
            let world = try await get(WireWorldShare.self, client, GeoPaths.visited + "/world", as: "ann")
            #expect(world.countryTotal == 249 && world.continentTotal == 7)
            #expect(world.mine.countries == ["FR", "JP"])
            #expect(world.mine.continents == ["asia", "europe"])
            #expect(world.mine.percent == 0.8)
            #expect(world.friends.map(\.userId) == ["bob"])
            #expect(world.friends.first?.share.continents == ["southAmerica"])
            let cats = try await get(WireWorldShare.self, client, GeoPaths.visited + "/world", as: "cat")
            #expect(cats.mine.countries == ["US"] && cats.friends.isEmpty)
        }
    }
}
