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
    ///
    /// Names are numbered biggest place first (the loader inserts them so), so "biggest first" is "lowest id
    /// first": each kind of match is read in id order and stops at the first few dozen, however many names match
    /// a common prefix ("sa" matches 20,000 of cities500's). Names equal to the query come first, then names
    /// starting with it (both through `place_names_by_folded`), then names with a word starting with each word of
    /// the query (FTS5 in rowid order); only when the list is still short.
    func searchPlaces(folded: String, limit: Int) async throws -> [PlaceHit] {
        try await read { db in
            var hits: [PlaceHit] = []
            var seen: Set<Int64> = []
            let wanted = limit * 8
            var read = 0
            func collect(_ rows: RowCursor, quality: Int) throws {
                while let row = try rows.next(), hits.count < limit {
                    read += 1
                    var hit = Self.hit(row)
                    hit.quality = quality
                    if seen.insert(hit.place.id).inserted { hits.append(hit) }
                }
            }
            try collect(
                Row.fetchCursor(
                    db.cachedStatement(sql: Self.namesSQL("n.folded = ?1 ORDER BY n.id LIMIT ?2")),
                    arguments: [folded, wanted]), quality: 0)
            if hits.count < limit {
                // Every name starting with the query and longer sorts between it and it followed by the last
                // code point. The ids are picked from the index alone, then read: joined first, every name of a
                // common prefix would be.
                try collect(
                    Row.fetchCursor(
                        db.cachedStatement(
                            sql: Self.namesSQL(
                                """
                                n.id IN (SELECT id FROM place_names WHERE folded > ?1 AND folded < ?2 ORDER BY id LIMIT ?3)
                                ORDER BY n.id
                                """)), arguments: [folded, folded + "\u{10FFFF}", wanted]), quality: 1)
            }
            if hits.count < limit, let query = PlaceMatching.prefixQuery(folded) {
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT \(Self.placeColumns), n.name, n.folded
                            FROM place_names_fts f JOIN place_names n ON n.id = f.rowid JOIN places p ON p.id = n.place_id
                            WHERE place_names_fts MATCH ?
                            ORDER BY f.rowid
                            LIMIT ?
                            """), arguments: [query, wanted + read])
                while let row = try rows.next(), hits.count < limit {
                    // Names equal to or starting with the query were read above.
                    let name: String = row[9]
                    guard name != folded, !name.hasPrefix(folded) else { continue }
                    var hit = Self.hit(row)
                    hit.quality = 2
                    if seen.insert(hit.place.id).inserted { hits.append(hit) }
                }
            }
            // Typos are looked for only when no name equals or starts with the query.
            guard !hits.contains(where: { $0.quality <= 1 }) else { return hits }
            let tolerance = PlaceMatching.tolerance(folded)
            let candidates = try Self.typoCandidates(db, folded)
            guard tolerance > 0, !candidates.isEmpty else { return hits }
            var fuzzy: [PlaceHit] = []
            let statement = try db.cachedStatement(sql: Self.namesSQL("n.id = ?", extra: ", n.folded"))
            for id in candidates {
                guard let row = try Row.fetchOne(statement, arguments: [id]) else { continue }
                let distance = PlaceMatching.typoDistance(query: folded, name: row[9])
                guard distance <= tolerance else { continue }
                var hit = Self.hit(row)
                hit.quality = 3 + distance
                fuzzy.append(hit)
            }
            return PlaceHit.filling(hits, seen: seen, with: fuzzy, limit: limit)
        }
    }

    static let placeColumns = "p.id, p.name, p.ascii_name, p.country_code, p.region, p.latitude, p.longitude, p.population"

    /// The place and matched name of the names `condition` picks.
    private static func namesSQL(_ condition: String, extra: String = "") -> String {
        """
        SELECT \(placeColumns), n.name\(extra) FROM place_names n JOIN places p ON p.id = n.place_id WHERE \(condition)
        """
    }

    /// The ids of the 200 names sharing most of the query's trigrams (a typo changes at most three), the biggest
    /// places first among as many shared: each trigram's names are read from the FTS5 index alone (no ranking
    /// function, which would score every name sharing a common trigram such as "ber").
    private static func typoCandidates(_ db: Database, _ folded: String) throws -> [Int64] {
        let grams = PlaceMatching.trigrams(ofWords: folded).prefix(255)
        guard !grams.isEmpty,
            let last = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM place_names")), last > 0
        else { return [] }
        // Counted in an array indexed by id (a few hundred KB): tens of thousands of ids a query, a dictionary's
        // hashing was most of the time.
        var shared = [UInt8](repeating: 0, count: last + 1)
        var touched: [Int] = []
        let statement = try db.cachedStatement(
            sql: "SELECT rowid FROM place_names_trigram WHERE place_names_trigram MATCH ?")
        for gram in grams {
            let ids = try Int.fetchCursor(statement, arguments: ["\"\(gram)\""])
            while let id = try ids.next() {
                guard id > 0, id <= last else { continue }
                if shared[id] == 0 { touched.append(id) }
                shared[id] += 1
            }
        }
        var byCount = [[Int]](repeating: [], count: grams.count + 1)
        for id in touched { byCount[Int(shared[id])].append(id) }
        var candidates: [Int64] = []
        for ids in byCount.reversed() where candidates.count < 200 {
            candidates += ids.sorted().prefix(200 - candidates.count).map(Int64.init)
        }
        return candidates
    }

    private static func hit(_ row: Row) -> PlaceHit {
        PlaceHit(
            place: PlaceRecord(
                id: row[0], name: row[1], asciiName: row[2], countryCode: row[3], region: row[4], latitude: row[5],
                longitude: row[6], population: row[7]), matchedName: row[8],
            quality: 0)
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
