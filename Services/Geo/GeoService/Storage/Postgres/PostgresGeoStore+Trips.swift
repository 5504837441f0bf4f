import Foundation
import PostgresNIO
import ServiceKit

/// Trips: each write locks the owner (``PostgresSession/lockUser(_:)``) and checks, in its transaction, that the
/// trip is theirs and its cover one of their photos.
extension PostgresGeoStore {
    static let tripColumns = """
        t.id, t.user_id, t.name, t.starts_on, t.ends_on, t.visibility, t.cover_photo_id, t.cover_pin_id, \
        t.created_at, t.updated_at
        """

    static func trip(_ row: PostgresRow) throws -> TripRecord {
        let (id, user, name, startsOn, endsOn, visibility, photo, pin, createdAt, updatedAt) = try row.decode(
            (Int64, String, String, String, String, String, String?, Int64?, Int64, Int64).self)
        return TripRecord(
            id: id, userId: user, name: name, startsOn: startsOn, endsOn: endsOn, visibility: visibility,
            coverPhotoId: photo, coverPinId: pin, createdAt: Date(storedMilliseconds: createdAt),
            updatedAt: Date(storedMilliseconds: updatedAt))
    }

    func createTrip(_ trip: TripRecord) async throws -> TripRecord {
        try await write { session in
            try await session.lockUser(trip.userId)
            let count = try await session.value(
                "SELECT count(*) FROM trips WHERE user_id = \(trip.userId)", as: Int.self) ?? 0
            guard count < Trips.tripsPerUser else { throw GeoError.tooManyTrips }
            var trip = trip
            trip.coverPinId = try await Self.coverPin(session, trip)
            trip.id = try await session.value(
                """
                INSERT INTO trips (user_id, name, starts_on, ends_on, visibility, cover_photo_id, cover_pin_id,
                    created_at, updated_at)
                VALUES (\(trip.userId), \(trip.name), \(trip.startsOn), \(trip.endsOn), \(trip.visibility),
                    \(trip.coverPhotoId), \(trip.coverPinId), \(trip.createdAt.storedMilliseconds),
                    \(trip.updatedAt.storedMilliseconds))
                RETURNING id
                """, as: Int64.self)
            return trip
        }
    }

    func trip(_ id: Int64) async throws -> TripRecord {
        try await read { session in
            guard
                let trip = try await session.first(
                    "SELECT \(unescaped: Self.tripColumns) FROM trips t WHERE t.id = \(id)", Self.trip)
            else { throw GeoError.notFound("The trip") }
            return trip
        }
    }

    func changeTrip(_ id: Int64, of userID: String, _ change: @Sendable (inout TripRecord) throws -> Void)
        async throws -> TripRecord
    {
        try await write { session in
            guard
                var trip = try await session.first(
                    "SELECT \(unescaped: Self.tripColumns) FROM trips t WHERE t.id = \(id) FOR UPDATE", Self.trip),
                trip.userId == userID
            else { throw GeoError.notFound("The trip") }
            try change(&trip)
            try Trips.checkSpan(startsOn: trip.startsOn, endsOn: trip.endsOn)
            trip.coverPinId = try await Self.coverPin(session, trip)
            try await session.execute(
                """
                UPDATE trips SET name = \(trip.name), starts_on = \(trip.startsOn), ends_on = \(trip.endsOn),
                    visibility = \(trip.visibility), cover_photo_id = \(trip.coverPhotoId),
                    cover_pin_id = \(trip.coverPinId), updated_at = \(trip.updatedAt.storedMilliseconds)
                WHERE id = \(id)
                """)
            return trip
        }
    }

    func deleteTrip(_ id: Int64, of userID: String) async throws {
        try await write { session in
            let deleted = try await session.execute(
                "DELETE FROM trips WHERE id = \(id) AND user_id = \(userID) RETURNING id")
            guard deleted > 0 else { throw GeoError.notFound("The trip") }
        }
    }

    func trips(of userID: String) async throws -> [TripRecord] {
        guard !Self.holdsNUL(userID) else { return [] }
        return try await read { session in
            try await session.rows(
                """
                SELECT \(unescaped: Self.tripColumns) FROM trips t WHERE t.user_id = \(userID)
                ORDER BY t.starts_on DESC, t.id DESC LIMIT \(Trips.tripsPerUser)
                """
            ).map(Self.trip)
        }
    }

    /// The pin of the trip's cover photo, which must be a photo of one of the owner's pins.
    static func coverPin(_ session: PostgresSession, _ trip: TripRecord) async throws -> Int64? {
        guard let photo = trip.coverPhotoId else { return nil }
        guard
            let pin = try await session.value(
                """
                SELECT ph.pin_id FROM pin_photos ph JOIN pins pn ON pn.id = ph.pin_id
                WHERE ph.id = \(photo) AND pn.user_id = \(trip.userId)
                """, as: Int64.self)
        else { throw GeoError.invalidField("coverPhotoId", "must be a photo of one of your pins.") }
        return pin
    }
}
