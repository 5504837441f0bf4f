import Foundation
import GRDB

/// The gazetteer: loading a GeoNames extract, searching it, and the place nearest to a point.
extension SQLiteGeoStore {
    /// Loads a gazetteer file (see `Services/Geo/Gazetteer`) in one transaction, in place of the places another file
    /// (or none) gave; a file whose SHA-256 the database already keeps is only hashed.
    static func loadGazetteer(from url: URL, into db: Database) throws {
        let file = try GazetteerFile(contentsOf: url)
        let loaded = try String.fetchOne(db.cachedStatement(sql: "SELECT sha256 FROM gazetteer_source WHERE id = 1"))
        guard loaded != file.sha256 else { return }
        let places = try file.places()
        try db.execute(sql: "DELETE FROM place_names; DELETE FROM places_rtree; DELETE FROM places")
        let place = try db.makeStatement(
            sql: """
                INSERT INTO places (id, name, ascii_name, country_code, region, latitude, longitude, population)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let box = try db.makeStatement(sql: "INSERT INTO places_rtree VALUES (?, ?, ?, ?, ?)")
        let name = try db.makeStatement(sql: "INSERT INTO place_names (place_id, name, folded) VALUES (?, ?, ?)")
        for entry in places {
            let record = entry.record
            try place.execute(arguments: [
                record.id, record.name, record.asciiName, record.countryCode, record.region, record.latitude,
                record.longitude, record.population,
            ])
            try box.execute(arguments: [record.id, record.latitude, record.latitude, record.longitude, record.longitude])
            for alias in entry.names { try name.execute(arguments: [record.id, alias.name, alias.folded]) }
        }
        try db.execute(sql: "INSERT INTO place_names_fts(place_names_fts) VALUES ('rebuild')")
        try db.execute(sql: "INSERT INTO place_names_trigram(place_names_trigram) VALUES ('rebuild')")
        try db.execute(
            sql: """
                INSERT INTO gazetteer_source (id, sha256, places) VALUES (1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET sha256 = excluded.sha256, places = excluded.places
                """, arguments: [file.sha256, places.count])
    }

    /// Places whose names match the folded query word by word (prefixes allowed), best match then biggest
    /// first; when no name equals or starts with the query, names within a few typos fill up the list.
    func searchPlaces(folded: String, limit: Int) async throws -> [PlaceHit] {
        try await read { db in
            var hits: [PlaceHit] = []
            var seen: Set<Int64> = []
            if let query = PlaceMatching.prefixQuery(folded) {
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT p.id, p.name, p.ascii_name, p.country_code, p.region, p.latitude, p.longitude,
                                p.population, n.name,
                                CASE WHEN n.folded = ?1 THEN 0 WHEN substr(n.folded, 1, length(?1)) = ?1 THEN 1 ELSE 2 END
                                    AS quality
                            FROM place_names_fts f JOIN place_names n ON n.id = f.rowid JOIN places p ON p.id = n.place_id
                            WHERE place_names_fts MATCH ?2
                            ORDER BY quality, p.population DESC, n.id
                            LIMIT ?3
                            """), arguments: [folded, query, limit * 8])
                while let row = try rows.next(), hits.count < limit {
                    let hit = Self.hit(row)
                    if seen.insert(hit.place.id).inserted { hits.append(hit) }
                }
            }
            // Typos are looked for only when no name equals or starts with the query.
            guard !hits.contains(where: { $0.quality <= 1 }), let trigrams = PlaceMatching.trigramQuery(folded) else {
                return hits
            }
            let tolerance = PlaceMatching.tolerance(folded)
            guard tolerance > 0 else { return hits }
            var fuzzy: [PlaceHit] = []
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT p.id, p.name, p.ascii_name, p.country_code, p.region, p.latitude, p.longitude,
                            p.population, n.name, n.folded
                        FROM place_names_trigram t JOIN place_names n ON n.id = t.rowid JOIN places p ON p.id = n.place_id
                        WHERE place_names_trigram MATCH ?
                        ORDER BY t.rank
                        LIMIT 200
                        """), arguments: [trigrams])
            while let row = try rows.next() {
                let distance = PlaceMatching.typoDistance(query: folded, name: row[9])
                guard distance <= tolerance else { continue }
                var hit = Self.hit(row)
                hit.quality = 3 + distance
                fuzzy.append(hit)
            }
            return PlaceHit.filling(hits, seen: seen, with: fuzzy, limit: limit)
        }
    }

    private static func hit(_ row: Row) -> PlaceHit {
        PlaceHit(
            place: PlaceRecord(
                id: row[0], name: row[1], asciiName: row[2], countryCode: row[3], region: row[4], latitude: row[5],
                longitude: row[6], population: row[7]), matchedName: row[8],
            quality: row.hasColumn("quality") ? row["quality"] : 3)
    }

    func place(_ id: Int64) async throws -> PlaceRecord? {
        try await read { db in
            try PlaceRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id, name, ascii_name, country_code, region, latitude, longitude, population
                        FROM places WHERE id = ?
                        """), arguments: [id])
        }
    }

    /// The gazetteer place nearest to a point within `radius` metres: gives a pin its country, region and name.
    func nearestPlace(latitude: Double, longitude: Double, radius: Double) async throws -> PlaceRecord? {
        let box = BoundingBox.around(latitude: latitude, longitude: longitude, radius: radius)
        return try await read { db in
            var best: (PlaceRecord, Double)?
            for range in box.longitudeRanges {
                let places = try PlaceRecord.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT p.id, p.name, p.ascii_name, p.country_code, p.region, p.latitude, p.longitude,
                                p.population
                            FROM places_rtree r JOIN places p ON p.id = r.id
                            WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
                            """), arguments: [box.south, box.north, range.lowerBound, range.upperBound])
                for place in places {
                    let distance = Geodesy.distance(latitude, longitude, place.latitude, place.longitude)
                    if distance <= radius, distance < best?.1 ?? .infinity { best = (place, distance) }
                }
            }
            return best?.0
        }
    }
}
