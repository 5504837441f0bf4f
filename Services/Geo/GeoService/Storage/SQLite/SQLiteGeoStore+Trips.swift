import Foundation
import GRDB
import ServiceKit

/// Trips: each write checks, in its transaction, that the trip is the caller's and its cover one of their photos.
extension SQLiteGeoStore {
    func createTrip(_ trip: TripRecord) async throws -> TripRecord {
        try await write { db in
            let count = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM trips WHERE user_id = ?", arguments: [trip.userId]) ?? 0
            guard count < Trips.tripsPerUser else { throw GeoError.tooManyTrips }
            var trip = trip
            trip.coverPinId = try Self.coverPin(db, trip)
            try trip.insert(db)
            return trip
        }
    }

    func trip(_ id: Int64) async throws -> TripRecord {
        try await read { db in
            guard let trip = try TripRecord.fetchOne(db, key: id) else { throw GeoError.notFound("The trip") }
            return trip
        }
    }

    func changeTrip(_ id: Int64, of userID: String, _ change: @Sendable (inout TripRecord) throws -> Void)
        async throws -> TripRecord
    {
        try await write { db in
            guard var trip = try TripRecord.fetchOne(db, key: id), trip.userId == userID else {
                throw GeoError.notFound("The trip")
            }
            try change(&trip)
            try Trips.checkSpan(startsOn: trip.startsOn, endsOn: trip.endsOn)
            trip.coverPinId = try Self.coverPin(db, trip)
            try trip.update(db)
            return trip
        }
    }

    func deleteTrip(_ id: Int64, of userID: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM trips WHERE id = ? AND user_id = ?", arguments: [id, userID])
            guard db.changesCount > 0 else { throw GeoError.notFound("The trip") }
        }
    }

    func trips(of userID: String) async throws -> [TripRecord] {
        try await read { db in
            try TripRecord.fetchAll(
                db, sql: "SELECT * FROM trips WHERE user_id = ? ORDER BY starts_on DESC, id DESC LIMIT ?",
                arguments: [userID, Trips.tripsPerUser])
        }
    }

    /// The pin of the trip's cover photo, which must be a photo of one of the owner's pins.
    static func coverPin(_ db: Database, _ trip: TripRecord) throws -> Int64? {
        guard let photo = trip.coverPhotoId else { return nil }
        guard
            let pin = try Int64.fetchOne(
                db,
                sql: """
                    SELECT pin_photos.pin_id FROM pin_photos JOIN pins ON pins.id = pin_photos.pin_id
                    WHERE pin_photos.id = ? AND pins.user_id = ?
                    """, arguments: [photo, trip.userId])
        else { throw GeoError.invalidField("coverPhotoId", "must be a photo of one of your pins.") }
        return pin
    }
}

extension TripRecord: FetchableRecord, MutablePersistableRecord, SnakeCaseColumns {
    static let databaseTableName = "trips"

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
