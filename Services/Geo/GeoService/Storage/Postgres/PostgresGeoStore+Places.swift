import Foundation
import PostgresNIO
import ServiceKit

/// The gazetteer: loading a GeoNames extract, searching it, and the place nearest to a point.
extension PostgresGeoStore {
    /// Rows sent per statement while loading.
    static let loadBatch = 5_000

    /// Loads a gazetteer file in one transaction, in place of the places another file (or none) gave; a file whose
    /// SHA-256 the database already keeps is only hashed. Replicas starting together wait for each other (a
    /// transaction advisory lock), so the first loads it and the others find it loaded; replicas already running go
    /// on reading the old places until the new ones commit. Reading, hashing and parsing run on NIO's thread pool.
    static func loadGazetteer(from url: URL, into session: PostgresSession) async throws {
        let file = try await NIOThreadPool.singleton.runIfActive { try GazetteerFile(contentsOf: url) }
        _ = try await session.connection.query("BEGIN", logger: session.logger)
        do {
            try await session.execute("SELECT pg_advisory_xact_lock(hashtextextended('geo-gazetteer', 0))")
            let loaded = try await session.value("SELECT sha256 FROM gazetteer_source WHERE id = 1", as: String.self)
            if loaded != file.sha256 {
                let places = try await NIOThreadPool.singleton.runIfActive { try file.places() }
                try await session.execute("DELETE FROM place_names")
                try await session.execute("DELETE FROM places")
                try await insertGazetteer(places, into: session)
                try await session.execute(
                    """
                    INSERT INTO gazetteer_source (id, sha256, places) VALUES (1, \(file.sha256), \(places.count))
                    ON CONFLICT (id) DO UPDATE SET sha256 = excluded.sha256, places = excluded.places
                    """)
                // Fresh statistics, or the planner walks the primary key for a rare word (100 ms, not 0.3).
                try await session.execute("ANALYZE places")
                try await session.execute("ANALYZE place_names")
            }
            _ = try await session.connection.query("COMMIT", logger: session.logger)
        } catch {
            _ = try? await session.connection.query("ROLLBACK", logger: session.logger)
            throw error
        }
    }

    private static func insertGazetteer(_ entries: [GazetteerFile.Place], into session: PostgresSession) async throws {
        var places = PlaceColumns()
        for entry in entries {
            places.append(entry.record)
            if places.ids.count >= loadBatch { try await places.flush(session) }
        }
        try await places.flush(session)
        // Names after every place they point at; biggest place first, as SQLite's rowids.
        var names = NameColumns()
        for entry in entries {
            for alias in entry.names { names.append(place: entry.record.id, name: alias.name, folded: alias.folded) }
            if names.places.count >= loadBatch { try await names.flush(session) }
        }
        try await names.flush(session)
    }

    /// Places to insert, column by column (one `unnest` statement per batch).
    private struct PlaceColumns {
        var ids: [Int64] = []
        var names: [String] = []
        var asciiNames: [String] = []
        var countries: [String] = []
        /// Empty for none (arrays of optionals do not encode): NULL once inserted.
        var regions: [String] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var populations: [Int64] = []

        mutating func append(_ place: PlaceRecord) {
            ids.append(place.id)
            names.append(place.name)
            asciiNames.append(place.asciiName)
            countries.append(place.countryCode)
            regions.append(place.region ?? "")
            latitudes.append(place.latitude)
            longitudes.append(place.longitude)
            populations.append(Int64(place.population))
        }

        mutating func flush(_ session: PostgresSession) async throws {
            guard !ids.isEmpty else { return }
            try await session.execute(
                """
                INSERT INTO places (id, name, ascii_name, country_code, region, latitude, longitude, population)
                SELECT id, name, ascii_name, country_code, NULLIF(region, ''), latitude, longitude, population
                FROM unnest(\(ids)::bigint[], \(names)::text[], \(asciiNames)::text[], \(countries)::text[],
                    \(regions)::text[], \(latitudes)::double precision[], \(longitudes)::double precision[],
                    \(populations)::bigint[])
                    AS p(id, name, ascii_name, country_code, region, latitude, longitude, population)
                """)
            self = PlaceColumns()
        }
    }

    /// Names to insert with their words and trigrams.
    private struct NameColumns {
        var places: [Int64] = []
        var names: [String] = []
        var folded: [String] = []

        mutating func append(place: Int64, name: String, folded: String) {
            places.append(place)
            names.append(name)
            self.folded.append(folded)
        }

        mutating func flush(_ session: PostgresSession) async throws {
            guard !places.isEmpty else { return }
            // Words and trigrams go as one text each (arrays of arrays must be rectangular): words joined by spaces
            // (they hold none), trigrams by a newline (folded names hold none).
            let words = folded.map { PlaceMatching.words($0).joined(separator: " ") }
            let grams = folded.map { PlaceMatching.trigrams($0).joined(separator: "\n") }
            try await session.execute(
                """
                INSERT INTO place_names (place_id, name, folded, words, grams)
                SELECT place_id, name, folded,
                    array_to_tsvector(string_to_array(words, ' ')), string_to_array(grams, E'\\n')
                FROM unnest(\(places)::bigint[], \(names)::text[], \(folded)::text[],
                    \(words)::text[], \(grams)::text[]) WITH ORDINALITY AS n(place_id, name, folded, words, grams, position)
                ORDER BY position
                """)
            self = NameColumns()
        }
    }

    /// As SQLite's: names equal to the query, then starting with it (`place_names_by_folded`), then with a word
    /// starting with each word of the query (`place_names_by_word`), each read in id order (biggest place first)
    /// and only while the list is short.
    func searchPlaces(folded: String, limit: Int) async throws -> [PlaceHit] {
        guard !Self.holdsNUL(folded) else { return [] }
        return try await read { session in
            var hits: [PlaceHit] = []
            var seen: Set<Int64> = []
            let wanted = limit * 8
            var read = 0
            func collect(_ rows: [PostgresRow], quality: Int, skipping skip: (String) -> Bool = { _ in false })
                throws
            {
                for row in rows where hits.count < limit {
                    read += 1
                    guard !skip(try row.makeRandomAccess()[9].decode(String.self)) else { continue }
                    var hit = try Self.hit(row)
                    hit.quality = quality
                    if seen.insert(hit.place.id).inserted { hits.append(hit) }
                }
            }
            try collect(
                try await session.rows(
                    """
                    SELECT \(unescaped: Self.placeColumns), n.name, n.folded
                    FROM place_names n JOIN places pl ON pl.id = n.place_id
                    WHERE n.folded = \(folded) ORDER BY n.id LIMIT \(wanted)
                    """), quality: 0)
            if hits.count < limit {
                try collect(
                    try await session.rows(
                        """
                        SELECT \(unescaped: Self.placeColumns), n.name, n.folded
                        FROM place_names n JOIN places pl ON pl.id = n.place_id
                        WHERE n.id IN (
                            SELECT id FROM place_names WHERE folded > \(folded) AND folded < \(folded + "\u{10FFFF}")
                            ORDER BY id LIMIT \(wanted))
                        ORDER BY n.id
                        """), quality: 1)
            }
            let words = PlaceMatching.words(folded)
            if hits.count < limit, !words.isEmpty {
                // Every word a prefix of a word of the name: FTS5's `"san"* "fran"*`. The words hold letters and
                // digits only, so quoting them is enough for tsquery's syntax.
                let query = words.map { "'\($0)':*" }.joined(separator: " & ")
                try collect(
                    try await session.rows(
                        """
                        SELECT \(unescaped: Self.placeColumns), n.name, n.folded
                        FROM place_names n JOIN places pl ON pl.id = n.place_id
                        WHERE n.words @@ \(query)::tsquery ORDER BY n.id LIMIT \(wanted + read)
                        """), quality: 2, skipping: { $0 == folded || $0.hasPrefix(folded) })
            }
            // Typos are looked for only when no name equals or starts with the query.
            guard !hits.contains(where: { $0.quality <= 1 }) else { return hits }
            let grams = PlaceMatching.trigrams(ofWords: folded)
            let tolerance = PlaceMatching.tolerance(folded)
            guard !grams.isEmpty, tolerance > 0 else { return hits }
            // The names sharing most of the query's trigrams, biggest place first (names are numbered so), as SQLite.
            var fuzzy: [PlaceHit] = []
            // Counted per trigram through `place_names_by_gram` (an intersection per name was twice as slow).
            for row in try await session.rows(
                """
                SELECT \(unescaped: Self.placeColumns), n.name, n.folded
                FROM (
                    SELECT m.id, count(*) AS shared FROM unnest(\(grams)::text[]) g
                    JOIN place_names m ON m.grams @> ARRAY[g]
                    GROUP BY m.id ORDER BY shared DESC, m.id LIMIT 200
                ) c JOIN place_names n ON n.id = c.id JOIN places pl ON pl.id = n.place_id
                ORDER BY c.shared DESC, n.id
                """)
            {
                let nameFolded = try row.makeRandomAccess()[9].decode(String.self)
                let distance = PlaceMatching.typoDistance(query: folded, name: nameFolded)
                guard distance <= tolerance else { continue }
                var hit = try Self.hit(row)
                hit.quality = 3 + distance
                fuzzy.append(hit)
            }
            return PlaceHit.filling(hits, seen: seen, with: fuzzy, limit: limit)
        }
    }

    private static func hit(_ row: PostgresRow) throws -> PlaceHit {
        PlaceHit(place: try place(row), matchedName: try row.makeRandomAccess()[8].decode(String.self), quality: 3)
    }

    func place(_ id: Int64) async throws -> PlaceRecord? {
        try await read { session in
            try await session.first(
                "SELECT \(unescaped: Self.placeColumns) FROM places pl WHERE pl.id = \(id)", Self.place)
        }
    }

    func nearestPlace(latitude: Double, longitude: Double, radius: Double) async throws -> PlaceRecord? {
        let box = BoundingBox.around(latitude: latitude, longitude: longitude, radius: radius)
        return try await read { session in
            var best: (PlaceRecord, Double)?
            for range in box.longitudeRanges {
                for place in try await session.rows(
                    """
                    SELECT \(unescaped: Self.placeColumns) FROM places pl
                    WHERE point(pl.longitude, pl.latitude)
                        <@ box(point(\(range.lowerBound), \(box.south)), point(\(range.upperBound), \(box.north)))
                    ORDER BY pl.id
                    """
                ).map(Self.place) {
                    let distance = Geodesy.distance(latitude, longitude, place.latitude, place.longitude)
                    if distance <= radius, distance < best?.1 ?? .infinity { best = (place, distance) }
                }
            }
            return best?.0
        }
    }
}
