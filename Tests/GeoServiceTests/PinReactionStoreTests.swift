import Foundation
import TestSupport
import Testing

@testable import GeoService

/// Reactions to pins and the countries of pins in the store, on both engines.
@Suite struct PinReactionStoreTests {
    let now = Date()

    func pin(_ database: any GeoStore, of user: String) async throws -> Int64 {
        try await database.createPin(
            PinRecord(
                id: nil, userId: user, latitude: 48.85, longitude: 2.35, placeName: "Paris", placeId: nil,
                countryCode: "FR", note: nil, visitedOn: nil, createdAt: now, updatedAt: now)
        ).pin.id!
    }

    @Test(arguments: StoreKind.allCases)
    func aReactionIsNewsOncePerPersonAndPinAndGoesWithThePin(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given
            let pin = try await pin(database, of: "ann")
            // when: bob reacts, changes, removes and reacts again; cat reacts
            #expect(try await database.setReaction(on: pin, by: "bob", kind: "love", now: now))
            #expect(!(try await database.setReaction(on: pin, by: "bob", kind: "wow", now: now)))
            #expect(!(try await database.setReaction(on: pin, by: "bob", kind: nil, now: now)))
            #expect(try await database.reactions(on: pin).isEmpty)
            #expect(!(try await database.setReaction(on: pin, by: "bob", kind: "clap", now: now)))
            #expect(try await database.setReaction(on: pin, by: "cat", kind: "love", now: now.addingTimeInterval(1)))
            // then: one reaction each, the latest
            #expect(
                try await database.reactions(on: pin)
                    == [PinReaction(userId: "bob", kind: "clap"), PinReaction(userId: "cat", kind: "love")])
            // and a removal with nothing to remove is fine; the pin's end takes its reactions
            #expect(!(try await database.setReaction(on: pin, by: "dan", kind: nil, now: now)))
            try await database.deletePin(pin, of: "ann")
            await #expect(throws: GeoError.notFound("The pin")) {
                try await database.setReaction(on: pin, by: "bob", kind: "love", now: now)
            }
            #expect(try await RawSQL.column(database, "SELECT count(*) FROM pin_reactions", as: Int.self) == [0])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func eachUsersCountriesAreReadOnceEach(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given: ann twice in France and once in Japan, bob at sea (no country), cat in Brazil
            let pins: [(String, String?, Double)] = [
                ("ann", "FR", 48), ("ann", "FR", 45), ("ann", "JP", 35), ("bob", nil, 0), ("cat", "BR", -10),
            ]
            for (user, country, latitude) in pins {
                _ = try await database.createPin(
                    PinRecord(
                        id: nil, userId: user, latitude: latitude, longitude: 5, placeName: "Somewhere", placeId: nil,
                        countryCode: country, note: nil, visitedOn: nil, createdAt: now, updatedAt: now))
            }
            // when
            let codes = try await database.countryCodes(of: ["ann", "bob", "dan"])
            // then: only those asked, each country once
            #expect(codes.mapValues { $0.sorted() } == ["ann": ["FR", "JP"]])
            #expect(try await database.countryCodes(of: []).isEmpty)
        }
    }
}
