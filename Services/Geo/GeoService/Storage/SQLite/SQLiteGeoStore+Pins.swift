import Foundation
import GRDB

/// Pins: a user's visited places.
extension SQLiteGeoStore {
    /// Saves a new pin (`created`), or answers the pin its user already has of the same place.
    func createPin(_ pin: PinRecord) async throws -> (pin: PinRecord, created: Bool) {
        try await write { db in
            // One pin per user per place: looked up inside the write, so two racing requests make one pin.
            if let existing = try Self.samePlacePin(db, as: pin) { return (existing, false) }
            let count = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM pins WHERE user_id = ?"), arguments: [pin.userId])
            guard (count ?? 0) < PinLimits.pinsPerUser else { throw GeoError.tooManyPins }
            var pin = pin
            try pin.insert(db)
            return (pin, true)
        }
    }

    /// The user's pin of the same place as `pin`: the same gazetteer place, or the nearest within
    /// ``PinLimits/samePlaceRadius`` metres (a user has at most ``PinLimits/pinsPerUser`` pins, and the latitude
    /// band is a few metres wide, so the candidates are few).
    private static func samePlacePin(_ db: Database, as pin: PinRecord) throws -> PinRecord? {
        if let placeID = pin.placeId,
            let samePlace = try PinRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM pins WHERE user_id = ? AND place_id = ? ORDER BY id LIMIT 1"),
                arguments: [pin.userId, placeID])
        {
            return samePlace
        }
        let band = PinLimits.samePlaceRadius / Geodesy.earthRadius * 180 / .pi + 1e-9
        return try PinRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM pins WHERE user_id = ? AND latitude BETWEEN ? AND ?"),
            arguments: [pin.userId, pin.latitude - band, pin.latitude + band]
        )
        .map { ($0, Geodesy.distance($0.latitude, $0.longitude, pin.latitude, pin.longitude)) }
        .filter { $0.1 <= PinLimits.samePlaceRadius }
        .min { $0.1 < $1.1 }?.0
    }

    /// A pin; a missing one is not found.
    func pin(_ id: Int64) async throws -> PinRecord {
        try await read { db in
            guard let pin = try PinRecord.fetchOne(db, key: id) else { throw GeoError.notFound("The pin") }
            return pin
        }
    }

    /// Changes my pin; someone else's pin is a 404 like a missing one.
    func changePin(_ id: Int64, of userID: String, _ change: @Sendable (inout PinRecord) throws -> Void) async throws
        -> PinRecord
    {
        try await write { db in
            guard var pin = try PinRecord.fetchOne(db, key: id), pin.userId == userID else {
                throw GeoError.notFound("The pin")
            }
            try change(&pin)
            try pin.update(db)
            return pin
        }
    }

    func deletePin(_ id: Int64, of userID: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM pins WHERE id = ? AND user_id = ?", arguments: [id, userID])
            guard db.changesCount > 0 else { throw GeoError.notFound("The pin") }
        }
    }

    /// A user's pins, newest first, after the cursor's id.
    func pins(of userID: String, before cursor: Int64?, limit: Int) async throws -> [PinRecord] {
        try await read { db in
            try PinRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM pins WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?"),
                arguments: [userID, cursor ?? Int64.max, limit])
        }
    }

    /// Every pin of a user (at most ``PinLimits/pinsPerUser``) as the visited summary needs it.
    func visitedPins(of userID: String) async throws -> [VisitedSummary.Pin] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT latitude, longitude, place_name, place_id, country_code, visited_on, created_at
                        FROM pins WHERE user_id = ? ORDER BY id
                        """), arguments: [userID]
            ).map {
                VisitedSummary.Pin(
                    latitude: $0[0], longitude: $0[1], placeName: $0[2], placeId: $0[3], countryCode: $0[4],
                    visitedOn: $0[5], createdAt: $0[6])
            }
        }
    }

    /// How many photos each of these pins has.
    func photoCounts(_ pinIDs: [Int64]) async throws -> [Int64: Int] {
        guard !pinIDs.isEmpty else { return [:] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT pin_id, count(*) FROM pin_photos WHERE pin_id IN (SELECT value FROM json_each(?))
                        GROUP BY pin_id
                        """), arguments: [StoredJSON.array(pinIDs)])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
        }
    }
}
