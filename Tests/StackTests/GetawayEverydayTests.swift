import Foundation
import GeoService
import PlatformKit
import TestSupport
import Testing

/// Getaway's everyday through the gateway: reacting to a friend's pin, and the share of the world beside a
/// friend's.
@Suite struct GetawayEverydayTests {
    @Test func aFriendReactsToAPinAndAStrangerIsRefused() async throws {
        let notices = RecordedNotices()
        try await GeoWorld.run(configure: { $0.noticeSink = notices }) { world in
            // given: ann's pin in Lisbon; bob is her friend, cat a stranger
            let pin = try await world.pin(world.ann, 38.7223, -9.1393, "Lisbon")
            let mine = GeoPaths.pins + "/\(pin)/reactions/mine"
            // then: the stranger is refused, the friend reacts
            let refused = try await world.api.send(
                .PUT, mine, token: world.cat.accessToken, json: ["kind": "love"])
            #expect(refused.problem?.code == "friends_only")
            let reacted = try await world.api.send(.PUT, mine, token: world.bob.accessToken, json: ["kind": "love"])
            #expect(reacted.status == 200, "\(reacted.text)")
            #expect(try reacted.decode(WirePinReactions.self).mine == "love")
            let changed = try await world.api.send(.PUT, mine, token: world.bob.accessToken, json: ["kind": "wow"])
            #expect(try changed.decode(WirePinReactions.self).counts["wow"] == 1)
            // and ann sees who, and was told once
            let owner = try await world.api.get(GeoPaths.pins + "/\(pin)/reactions", token: world.ann.accessToken)
            #expect(try owner.decode(WirePinReactions.self).reactors?.map(\.userId) == [world.bob.id])
            let told = notices.all.filter { $0.kind == "geo.pin_reaction" }
            #expect(told.map(\.recipients) == [[world.ann.id]])
        }
    }

    @Test func myShareOfTheWorldStandsBesideMyFriendsButNotStrangers() async throws {
        try await GeoWorld.run(gazetteer: true) { world in
            // given: ann in Lisbon and Paris, her friend bob in Tokyo, cat (a stranger) in New York
            try await world.pin(world.ann, 38.7223, -9.1393, "Lisbon")
            try await world.pin(world.ann, 48.8566, 2.3522, "Paris")
            try await world.pin(world.bob, 35.6895, 139.6917, "Tokyo")
            try await world.pin(world.cat, 40.7128, -74.0060, "New York")
            // when
            let answer = try await world.api.get(GeoPaths.visited + "/world", token: world.ann.accessToken)
            #expect(answer.status == 200, "\(answer.text)")
            let share = try answer.decode(WireWorldShare.self)
            // then
            #expect(share.countryTotal == 249)
            #expect(share.mine.countries == ["FR", "PT"])
            #expect(share.mine.continents == ["europe"])
            #expect(share.friends.map(\.userId) == [world.bob.id])
            #expect(share.friends.first?.share.continents == ["asia"])
        }
    }
}
