import Foundation
import TestSupport
import Testing

@testable import GeoService

/// Trips in the store, on both engines.
@Suite struct TripStoreTests {
    let now = Date()

    func pinWithPhoto(_ database: any GeoStore, of user: String, photo: String) async throws -> Int64 {
        let pin = try await database.createPin(
            PinRecord(
                id: nil, userId: user, latitude: 38.7, longitude: -9.1, placeName: "Lisbon", placeId: nil,
                countryCode: "PT", note: nil, visitedOn: "2026-05-02", createdAt: now, updatedAt: now)
        ).pin.id!
        try await database.addPhoto(
            PinPhotoRecord(id: photo, pinId: pin, mediaType: "image/png", etag: "\"e\"", byteCount: 1, createdAt: now),
            bytes: Data([1]), by: user)
        return pin
    }

    func trip(_ user: String, cover: String? = nil, startsOn: String = "2026-05-01") -> TripRecord {
        TripRecord(
            id: nil, userId: user, name: "Portugal", startsOn: startsOn, endsOn: "2026-05-10", visibility: "friends",
            coverPhotoId: cover, coverPinId: nil, createdAt: now, updatedAt: now)
    }

    @Test(arguments: StoreKind.allCases)
    func aTripIsItsOwnersWithOneOfTheirPhotosAsCover(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given: ann's and bob's pins with a photo each
            let pin = try await pinWithPhoto(database, of: "ann", photo: "p-ann")
            _ = try await pinWithPhoto(database, of: "bob", photo: "p-bob")
            // then: bob's photo cannot be ann's cover
            await #expect(throws: GeoError.invalidField("coverPhotoId", "must be a photo of one of your pins.")) {
                try await database.createTrip(trip("ann", cover: "p-bob"))
            }
            // when: ann makes two trips, one with her photo as cover
            let first = try await database.createTrip(trip("ann", cover: "p-ann"))
            #expect(first.coverPinId == pin)
            let second = try await database.createTrip(trip("ann", startsOn: "2026-05-05"))
            // then: listed newest start first, read back as made
            #expect(try await database.trips(of: "ann").map(\.id) == [second.id, first.id])
            #expect(try await database.trip(first.id!).coverPhotoId == "p-ann")
            // and only ann changes or deletes them
            await #expect(throws: GeoError.notFound("The trip")) {
                try await database.changeTrip(first.id!, of: "bob") { $0.name = "Mine" }
            }
            await #expect(throws: GeoError.notFound("The trip")) { try await database.deleteTrip(first.id!, of: "bob") }
            await #expect(throws: GeoError.invalidField("endsOn", "must not be before startsOn.")) {
                try await database.changeTrip(first.id!, of: "ann") { $0.endsOn = "2026-04-01" }
            }
            let renamed = try await database.changeTrip(first.id!, of: "ann") { $0.name = "Lisbon week" }
            #expect(renamed.name == "Lisbon week" && renamed.coverPinId == pin)
            // and deleting the cover photo clears the cover
            try await database.deletePhoto("p-ann", of: pin, by: "ann")
            #expect(try await database.trip(first.id!).coverPhotoId == nil)
            try await database.deleteTrip(second.id!, of: "ann")
            #expect(try await database.trips(of: "ann").map(\.id) == [first.id])
        }
    }
}
