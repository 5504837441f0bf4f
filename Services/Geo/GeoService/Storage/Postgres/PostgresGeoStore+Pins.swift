import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

/// Pins, their photos, and what each viewer chose (colours, privacy).
extension PostgresGeoStore {
    /// One pin per user per place and at most ``PinLimits/pinsPerUser``: checked under the user's lock, so two
    /// racing requests (on any replicas) make one pin.
    func createPin(_ pin: PinRecord) async throws -> (pin: PinRecord, created: Bool) {
        try await write { session in
            try await session.lockUser(pin.userId)
            if let existing = try await Self.samePlacePin(session, as: pin) { return (existing, false) }
            let count = try await session.value(
                "SELECT count(*) FROM pins WHERE user_id = \(pin.userId)", as: Int.self)
            guard (count ?? 0) < PinLimits.pinsPerUser else { throw GeoError.tooManyPins }
            var pin = pin
            pin.id = try await session.value(
                """
                INSERT INTO pins (user_id, latitude, longitude, place_name, place_id, country_code, region, note,
                    visited_on, created_at, updated_at)
                VALUES (\(pin.userId), \(pin.latitude), \(pin.longitude), \(pin.placeName), \(pin.placeId),
                    \(pin.countryCode), \(pin.region), \(pin.note), \(pin.visitedOn), \(pin.createdAt.storedMilliseconds),
                    \(pin.updatedAt.storedMilliseconds))
                RETURNING id
                """, as: Int64.self)
            return (pin, true)
        }
    }

    /// The user's pin of the same place as `pin` (see ``SQLiteGeoStore``'s, which this follows).
    private static func samePlacePin(_ session: PostgresSession, as pin: PinRecord) async throws -> PinRecord? {
        if let placeID = pin.placeId,
            let samePlace = try await session.first(
                """
                SELECT \(unescaped: pinColumns) FROM pins pn WHERE pn.user_id = \(pin.userId) AND pn.place_id = \(placeID)
                ORDER BY pn.id LIMIT 1
                """, Self.pin)
        {
            return samePlace
        }
        let band = PinLimits.samePlaceRadius / Geodesy.earthRadius * 180 / .pi + 1e-9
        return try await session.rows(
            """
            SELECT \(unescaped: pinColumns) FROM pins pn
            WHERE pn.user_id = \(pin.userId) AND pn.latitude BETWEEN \(pin.latitude - band) AND \(pin.latitude + band)
            ORDER BY pn.user_id, pn.latitude, pn.longitude, pn.place_name, pn.id
            """
        ).map(Self.pin)
            .map { ($0, Geodesy.distance($0.latitude, $0.longitude, pin.latitude, pin.longitude)) }
            .filter { $0.1 <= PinLimits.samePlaceRadius }
            .min { $0.1 < $1.1 }?.0
    }

    func pin(_ id: Int64) async throws -> PinRecord {
        try await read { session in
            guard let pin = try await Self.pin(session, id) else { throw GeoError.notFound("The pin") }
            return pin
        }
    }

    static func pin(_ session: PostgresSession, _ id: Int64, lock: Bool = false) async throws -> PinRecord? {
        try await session.first(
            "SELECT \(unescaped: pinColumns) FROM pins pn WHERE pn.id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")",
            Self.pin)
    }

    func changePin(_ id: Int64, of userID: String, _ change: @Sendable (inout PinRecord) throws -> Void) async throws
        -> PinRecord
    {
        try await write { session in
            guard var pin = try await Self.pin(session, id, lock: true), pin.userId == userID else {
                throw GeoError.notFound("The pin")
            }
            try change(&pin)
            try await session.execute(
                """
                UPDATE pins SET user_id = \(pin.userId), latitude = \(pin.latitude), longitude = \(pin.longitude),
                    place_name = \(pin.placeName), place_id = \(pin.placeId), country_code = \(pin.countryCode),
                    region = \(pin.region), note = \(pin.note), visited_on = \(pin.visitedOn), created_at = \(pin.createdAt.storedMilliseconds),
                    updated_at = \(pin.updatedAt.storedMilliseconds)
                WHERE id = \(id)
                """)
            return pin
        }
    }

    func deletePin(_ id: Int64, of userID: String) async throws {
        try await write { session in
            let deleted = try await session.execute(
                "DELETE FROM pins WHERE id = \(id) AND user_id = \(userID) RETURNING id")
            guard deleted > 0 else { throw GeoError.notFound("The pin") }
        }
    }

    func pins(of userID: String, before cursor: Int64?, limit: Int) async throws -> [PinRecord] {
        // A client names the user: one PostgreSQL's text cannot hold has no pins.
        guard !Self.holdsNUL(userID) else { return [] }
        return try await read { session in
            try await session.rows(
                """
                SELECT \(unescaped: Self.pinColumns) FROM pins pn WHERE pn.user_id = \(userID) AND pn.id < \(cursor ?? Int64.max)
                ORDER BY pn.id DESC LIMIT \(limit)
                """
            ).map(Self.pin)
        }
    }

    func visitedPins(of userID: String) async throws -> [VisitedSummary.Pin] {
        try await read { session in
            try await session.rows(
                """
                SELECT latitude, longitude, place_name, place_id, country_code, visited_on, created_at
                FROM pins WHERE user_id = \(userID) ORDER BY id
                """
            ).map { row in
                let (latitude, longitude, placeName, placeID, country, visitedOn, createdAt) = try row.decode(
                    (Double, Double, String, Int64?, String?, String?, Int64).self)
                return VisitedSummary.Pin(
                    latitude: latitude, longitude: longitude, placeName: placeName, placeId: placeID,
                    countryCode: country, visitedOn: visitedOn, createdAt: Date(storedMilliseconds: createdAt))
            }
        }
    }

    func photoCounts(_ pinIDs: [Int64]) async throws -> [Int64: Int] {
        guard !pinIDs.isEmpty else { return [:] }
        return try await read { session in
            let rows = try await session.rows(
                "SELECT pin_id, count(*) FROM pin_photos WHERE pin_id = ANY(\(pinIDs)) GROUP BY pin_id")
            return Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((Int64, Int).self) })
        }
    }

    // MARK: Photos

    /// At most ``PinLimits/photosPerPin``: counted under the pin's row lock.
    func addPhoto(_ info: PinPhotoRecord, bytes: Data, by userID: String) async throws {
        try await write { session in
            guard let pin = try await Self.pin(session, info.pinId, lock: true), pin.userId == userID else {
                throw GeoError.notFound("The pin")
            }
            let count = try await session.value(
                "SELECT count(*) FROM pin_photos WHERE pin_id = \(info.pinId)", as: Int.self)
            guard (count ?? 0) < PinLimits.photosPerPin else { throw GeoError.tooManyPhotos }
            try await session.execute(
                """
                INSERT INTO pin_photos (id, pin_id, bytes, media_type, etag, byte_count, created_at)
                VALUES (\(info.id), \(info.pinId), \(bytes), \(info.mediaType), \(info.etag), \(info.byteCount),
                    \(info.createdAt.storedMilliseconds))
                """)
        }
    }

    func photos(of pinID: Int64) async throws -> [PinPhotoRecord] {
        try await read { session in
            try await session.rows(
                """
                SELECT id, pin_id, media_type, etag, byte_count, created_at FROM pin_photos
                WHERE pin_id = \(pinID) ORDER BY created_at, id
                """
            ).map { row in
                let (id, pinID, mediaType, etag, byteCount, createdAt) = try row.decode(
                    (String, Int64, String, String, Int, Int64).self)
                return PinPhotoRecord(
                    id: id, pinId: pinID, mediaType: mediaType, etag: etag, byteCount: byteCount,
                    createdAt: Date(storedMilliseconds: createdAt))
            }
        }
    }

    func photo(_ id: String, of pinID: Int64) async throws -> StoredBytes {
        guard !Self.holdsNUL(id) else { throw GeoError.notFound("The photo") }
        return try await read { session in
            guard
                let (bytes, mediaType, etag) = try await session.first(
                    "SELECT bytes, media_type, etag FROM pin_photos WHERE id = \(id) AND pin_id = \(pinID)",
                    { try $0.decode((Data, String, String).self) })
            else { throw GeoError.notFound("The photo") }
            return StoredBytes(bytes: bytes, mediaType: mediaType, tag: EntityTag(stored: etag))
        }
    }

    func deletePhoto(_ id: String, of pinID: Int64, by userID: String) async throws {
        guard !Self.holdsNUL(id) else { throw GeoError.notFound("The photo") }
        try await write { session in
            let deleted = try await session.execute(
                """
                DELETE FROM pin_photos WHERE id = \(id)
                    AND pin_id IN (SELECT id FROM pins WHERE id = \(pinID) AND user_id = \(userID))
                RETURNING id
                """)
            guard deleted > 0 else { throw GeoError.notFound("The photo") }
        }
    }

    // MARK: Colours and privacy

    func colorScheme(of userID: String) async throws -> ColorScheme {
        try await read { session in try await Self.colorScheme(session, userID) }
    }

    static func colorScheme(_ session: PostgresSession, _ userID: String) async throws -> ColorScheme {
        var scheme = ColorScheme()
        for row in try await session.rows(Prepared<ColorSchemeOfUser>(userID)) {
            let (pin, first, friend, other) = try row.decode((Int64?, String?, String?, String?).self)
            if let pin {
                scheme.pins[pin] = first
            } else {
                scheme.own = first
                scheme.friend = friend
                scheme.other = other
            }
        }
        return scheme
    }

    func setCategoryColors(of userID: String, own: String?, friend: String?, other: String?) async throws {
        try await write { session in
            try await session.execute(
                """
                INSERT INTO color_choices (user_id, own, friend, other) VALUES (\(userID), \(own), \(friend), \(other))
                ON CONFLICT (user_id) DO UPDATE SET own = excluded.own, friend = excluded.friend, other = excluded.other
                """)
        }
    }

    /// At most ``PinLimits/pinsPerUser`` colours: counted under the user's lock.
    func setPinColor(of userID: String, pin: Int64, color: String?) async throws {
        try await write { session in
            if let color {
                try await session.lockUser(userID)
                let chosen = try await session.value(
                    "SELECT count(*) FROM pin_colors WHERE user_id = \(userID)", as: Int.self)
                guard (chosen ?? 0) < PinLimits.pinsPerUser else { throw GeoError.tooManyColors }
                try await session.execute(
                    """
                    INSERT INTO pin_colors (user_id, pin_id, color) VALUES (\(userID), \(pin), \(color))
                    ON CONFLICT (user_id, pin_id) DO UPDATE SET color = excluded.color
                    """)
            } else {
                try await session.execute("DELETE FROM pin_colors WHERE user_id = \(userID) AND pin_id = \(pin)")
            }
        }
    }

    func isListedToStrangers(_ userID: String) async throws -> Bool {
        guard !Self.holdsNUL(userID) else { return true }
        return try await read { session in
            try await session.value(
                "SELECT listed_to_strangers FROM privacy WHERE user_id = \(userID)", as: Bool.self) ?? true
        }
    }

    func setListedToStrangers(_ userID: String, _ listed: Bool) async throws {
        try await write { session in
            try await session.execute(
                """
                INSERT INTO privacy (user_id, listed_to_strangers) VALUES (\(userID), \(listed))
                ON CONFLICT (user_id) DO UPDATE SET listed_to_strangers = excluded.listed_to_strangers
                """)
        }
    }

    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String> {
        try await read { session in try await Self.unlistedToStrangers(session, among: userIDs) }
    }

    static func unlistedToStrangers(_ session: PostgresSession, among userIDs: [String]) async throws -> Set<String> {
        let wanted = userIDs.filter { !holdsNUL($0) }
        guard !wanted.isEmpty else { return [] }
        return Set(try await session.rows(Prepared<UnlistedAmong>(wanted)).map { try $0.decode(String.self) })
    }

    // Read on every map: prepared.

    enum ColorSchemeOfUser: PreparedSQL {
        static let sql = """
            SELECT NULL::bigint, own, friend, other FROM color_choices WHERE user_id = $1
            UNION ALL
            SELECT pin_id, color, NULL, NULL FROM pin_colors WHERE user_id = $1
            """
    }

    enum UnlistedAmong: PreparedSQL {
        static let sql = "SELECT user_id FROM privacy WHERE NOT listed_to_strangers AND user_id = ANY($1)"
    }
}
