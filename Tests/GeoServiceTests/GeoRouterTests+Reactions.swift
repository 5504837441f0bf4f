import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

extension GeoRouterTests {
    /// Friends react to a pin; strangers, the owner and blocked users cannot; the owner alone sees who, and is
    /// told once per friend.
    @Test func onlyFriendsReactToAPinAndItsOwnerIsToldOnce() async throws {
        // given: ann's pin; bob her friend, cat a stranger, dan blocked
        let pin = try await pin("ann")
        try await app().test(.router) { client async throws in
            let mine = GeoPaths.pins + "/\(pin)/reactions/mine"
            let love = #"{"kind":"love"}"#
            // then: only a friend may, with a known reaction
            #expect(try await call(client, .put, mine, as: "cat", json: love).problem?.code == "friends_only")
            #expect(try await call(client, .put, mine, as: "dan", json: love).problem?.code == "not_found")
            #expect(try await call(client, .put, mine, as: "ann", json: love).problem?.code == "own_pin")
            #expect(try await call(client, .delete, mine, as: "cat").problem?.code == "friends_only")
            let bad = try await call(client, .put, mine, as: "bob", json: #"{"kind":"thumbs"}"#)
            #expect(bad.problem?.code == "invalid_kind")
            #expect(
                try await call(client, .put, GeoPaths.pins + "/999/reactions/mine", as: "bob", json: love).status
                    == .notFound)
            // when: bob reacts, changes his mind, removes it and reacts again
            let first = try await get(WirePinReactions.self, client, mine, as: "bob", method: .put, json: love)
            #expect(first.mine == "love" && first.counts["love"] == 1 && first.reactors == nil)
            _ = try await get(WirePinReactions.self, client, mine, as: "bob", method: .put, json: #"{"kind":"wow"}"#)
            #expect(try await call(client, .delete, mine, as: "bob").status == .noContent)
            _ = try await get(WirePinReactions.self, client, mine, as: "bob", method: .put, json: #"{"kind":"clap"}"#)
            // then: ann was told once, naming bob
            let told = notices.sent.withLock { $0.filter { $0.kind == "geo.pin_reaction" } }
            #expect(told.map(\.recipients) == [["ann"]])
            #expect(told.first?.text == "bob reacted ❤️ to your pin Paris.")
            // and the owner sees who; others see counts only
            let reactions = GeoPaths.pins + "/\(pin)/reactions"
            let owner = try await get(WirePinReactions.self, client, reactions, as: "ann")
            #expect(owner.counts == ["love": 0, "wow": 0, "envy": 0, "laugh": 0, "clap": 1])
            #expect(owner.reactors?.map(\.userId) == ["bob"])
            let stranger = try await get(WirePinReactions.self, client, reactions, as: "cat")
            #expect(stranger.reactors == nil && stranger.mine == nil && stranger.counts["clap"] == 1)
            #expect(try await call(client, .get, reactions, as: "dan").status == .notFound)
        }
    }
}
