import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import Testing

@testable import GeoService

extension GeoRouterTests {
    struct TripBody: Decodable {
        struct DayPin: Decodable {
            struct Pin: Decodable {
                var id: String
            }

            var day: String
            var pin: Pin
        }

        var id: String
        var name: String
        var pins: [DayPin]?
    }

    /// Trips are their owner's to change; friends read shared ones, nobody else reads any; bad fields are named.
    @Test func tripsAreTheOwnersAndSharedWithFriendsOnly() async throws {
        // given: ann's pin in Paris (pinned today)
        let pin = try await pin("ann")
        let today = LocalDay(now, in: .gmt).description
        try await app().test(.router) { client async throws in
            func post(_ json: String) async throws -> Answer {
                try await call(client, .post, GeoPaths.trips, as: "ann", json: json)
            }
            // then: bad fields are named
            #expect(try await post(#"{"startsOn":"2026-01-01","endsOn":"2026-01-02"}"#).problem?.code == "invalid_name")
            #expect(
                try await post(#"{"name":"X","startsOn":"2026-13-01","endsOn":"2026-01-02"}"#).problem?.code
                    == "invalid_starts_on")
            #expect(
                try await post(#"{"name":"X","startsOn":"2026-01-03","endsOn":"2026-01-02"}"#).problem?.code
                    == "invalid_ends_on")
            #expect(
                try await post(#"{"name":"X","startsOn":"2026-01-01","endsOn":"2026-01-02","visibility":"all"}"#)
                    .problem?.code == "invalid_visibility")
            #expect(
                try await post(#"{"name":"X","startsOn":"2026-01-01","endsOn":"2026-01-02","coverPhotoId":"nope"}"#)
                    .problem?.code == "invalid_cover_photo_id")
            // A NUL, which PostgreSQL's text cannot hold, is refused before any lookup (it was a 500 there).
            let withNUL = try await post(
                #"{"name":"X","startsOn":"2026-01-01","endsOn":"2026-01-02","coverPhotoId":"a\u0000b"}"#)
            #expect(withNUL.problem?.code == "invalid_cover_photo_id", "\(withNUL.status)")
            // when: ann makes a shared trip around today and a private one
            let shared = try await get(
                TripBody.self, client, GeoPaths.trips, as: "ann", method: .post,
                json: #"{"name":"Paris","startsOn":"\#(today)","endsOn":"\#(today)","visibility":"friends"}"#,
                status: .created)
            #expect(shared.pins?.map(\.pin.id) == [String(pin)])
            let secret = try await get(
                TripBody.self, client, GeoPaths.trips, as: "ann", method: .post,
                json: #"{"name":"Secret","startsOn":"2020-01-01","endsOn":"2020-01-02"}"#, status: .created)
            // then: bob (a friend) reads the shared one only; cat and dan read none
            let sharedPath = GeoPaths.trips + "/\(shared.id)"
            let secretPath = GeoPaths.trips + "/\(secret.id)"
            #expect(try await get(TripBody.self, client, sharedPath, as: "bob").pins?.count == 1)
            #expect(try await call(client, .get, secretPath, as: "bob").problem?.code == "not_found")
            #expect(try await call(client, .get, sharedPath, as: "cat").problem?.code == "not_found")
            #expect(try await call(client, .get, sharedPath, as: "dan").problem?.code == "not_found")
            let listed = try await get(
                GeoPage<TripBody>.self, client, GeoPaths.trips + "?userId=ann", as: "bob")
            #expect(listed.items.map(\.id) == [shared.id])
            #expect(try await get(GeoPage<TripBody>.self, client, GeoPaths.trips, as: "ann").items.count == 2)
            // and only ann changes or deletes them
            #expect(
                try await call(client, .patch, sharedPath, as: "bob", json: #"{"name":"Mine"}"#).status == .notFound)
            #expect(try await call(client, .delete, sharedPath, as: "bob").status == .notFound)
            let renamed = try await get(
                TripBody.self, client, sharedPath, as: "ann", method: .patch, json: #"{"name":"Paris again"}"#)
            #expect(renamed.name == "Paris again")
            #expect(try await call(client, .delete, secretPath, as: "ann").status == .noContent)
        }
    }
}
