import Foundation
import PostgresNIO
import ServiceKit

/// The gazetteer: loading the shipped GeoNames extract, searching it, and the nearest city to a point.
extension PostgresGeoStore {
    /// Rows sent per statement while loading.
    static let loadBatch = 2_000

    /// Loads `cities15000.tsv` in one transaction, only into an empty table; replicas starting together wait for
    /// each other (a transaction advisory lock), so the first loads it and the others find it loaded.
    static func loadGazetteer(from url: URL, into session: PostgresSession) async throws {
        _ = try await session.connection.query("BEGIN", logger: session.logger)
        do {
            try await session.execute("SELECT pg_advisory_xact_lock(hashtextextended('geo-gazetteer', 0))")
            if try await session.value("SELECT count(*) FROM places", as: Int.self) == 0 {
                try await insertGazetteer(try String(contentsOf: url, encoding: .utf8), into: session)
            }
            _ = try await session.connection.query("COMMIT", logger: session.logger)
        } catch {
            _ = try? await session.connection.query("ROLLBACK", logger: session.logger)
            throw error
        }
    }

    private static func insertGazetteer(_ text: String, into session: PostgresSession) async throws {
        var places = PlaceColumns()
        var names = NameColumns()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 8, let id = Int64(fields[0]), let latitude = Double(fields[5]),
                let longitude = Double(fields[6]), let population = Int64(fields[7])
            else { continue }
            places.append(
                id: id, name: String(fields[1]), asciiName: String(fields[2]), country: String(fields[4]),
                latitude: latitude, longitude: longitude, population: population)
            var seen: Set<String> = []
            for alias in ([fields[1], fields[2]] + fields[3].split(separator: "|")).map(String.init)
            where !alias.isEmpty {
                let folded = PlaceMatching.fold(alias)
                guard seen.insert(folded).inserted else { continue }
                names.append(place: id, name: alias, folded: folded)
            }
            if places.ids.count >= loadBatch { try await places.flush(session) }
        }
        try await places.flush(session)
        // Names after every place they point at; in file order, as SQLite's rowids.
        for start in stride(from: 0, to: names.places.count, by: loadBatch) {
            try await names.flush(session, start..<min(start + loadBatch, names.places.count))
        }
    }

    /// Places to insert, column by column (one `unnest` statement per batch).
    private struct PlaceColumns {
        var ids: [Int64] = []
        var names: [String] = []
        var asciiNames: [String] = []
        var countries: [String] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var populations: [Int64] = []

        mutating func append(
            id: Int64, name: String, asciiName: String, country: String, latitude: Double, longitude: Double,
            population: Int64
        ) {
            ids.append(id)
            names.append(name)
            asciiNames.append(asciiName)
            countries.append(country)
            latitudes.append(latitude)
            longitudes.append(longitude)
            populations.append(population)
        }

        mutating func flush(_ session: PostgresSession) async throws {
            guard !ids.isEmpty else { return }
            try await session.execute(
                """
                INSERT INTO places (id, name, ascii_name, country_code, latitude, longitude, population)
                SELECT * FROM unnest(\(ids)::bigint[], \(names)::text[], \(asciiNames)::text[], \(countries)::text[],
                    \(latitudes)::double precision[], \(longitudes)::double precision[], \(populations)::bigint[])
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

        func flush(_ session: PostgresSession, _ range: Range<Int>) async throws {
            let folded = Array(self.folded[range])
            // Words and trigrams go as one text each (arrays of arrays must be rectangular): words joined by spaces
            // (they hold none), trigrams by a newline (folded names hold none).
            let words = folded.map { PlaceMatching.words($0).joined(separator: " ") }
            let grams = folded.map { PlaceMatching.trigrams($0).joined(separator: "\n") }
            try await session.execute(
                """
                INSERT INTO place_names (place_id, name, folded, words, grams)
                SELECT place_id, name, folded,
                    array_to_tsvector(string_to_array(words, ' ')), string_to_array(grams, E'\\n')
                FROM unnest(\(Array(places[range]))::bigint[], \(Array(names[range]))::text[], \(folded)::text[],
                    \(words)::text[], \(grams)::text[]) WITH ORDINALITY AS n(place_id, name, folded, words, grams, position)
                ORDER BY position
                """)
        }
    }

    func searchPlaces(folded: String, limit: Int) async throws -> [PlaceHit] {
        guard !Self.holdsNUL(folded) else { return [] }
        return try await read { session in
            var hits: [PlaceHit] = []
            var seen: Set<Int64> = []
            let words = PlaceMatching.words(folded)
            if !words.isEmpty {
                // Every word a prefix of a word of the name: FTS5's `"san"* "fran"*`. The words hold letters and
                // digits only, so quoting them is enough for tsquery's syntax.
                let query = words.map { "'\($0)':*" }.joined(separator: " & ")
                for row in try await session.rows(
                    """
                    SELECT \(unescaped: Self.placeColumns), n.name,
                        CASE WHEN n.folded = \(folded) THEN 0 WHEN left(n.folded, length(\(folded))) = \(folded) THEN 1
                            ELSE 2 END AS quality
                    FROM place_names n JOIN places pl ON pl.id = n.place_id
                    WHERE n.words @@ \(query)::tsquery
                    ORDER BY quality, pl.population DESC, n.id
                    LIMIT \(limit * 8)
                    """)
                where hits.count < limit {
                    let hit = try Self.hit(row)
                    if seen.insert(hit.place.id).inserted { hits.append(hit) }
                }
            }
            // Typos are looked for only when no name equals or starts with the query.
            guard !hits.contains(where: { $0.quality <= 1 }) else { return hits }
            let grams = PlaceMatching.trigrams(ofWords: folded)
            let tolerance = PlaceMatching.tolerance(folded)
            guard !grams.isEmpty, tolerance > 0 else { return hits }
            // The names sharing most of the query's trigrams, shortest first (FTS5's bm25 rank favours the same).
            var fuzzy: [PlaceHit] = []
            for row in try await session.rows(
                """
                SELECT \(unescaped: Self.placeColumns), n.name, n.folded
                FROM place_names n JOIN places pl ON pl.id = n.place_id
                WHERE n.grams && \(grams)::text[]
                ORDER BY cardinality(ARRAY(SELECT unnest(n.grams) INTERSECT SELECT unnest(\(grams)::text[]))) DESC,
                    length(n.folded), n.id
                LIMIT 200
                """)
            {
                let nameFolded = try row.makeRandomAccess()[8].decode(String.self)
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
        let random = row.makeRandomAccess()
        let quality = random.contains("quality") ? try random.get("quality", as: Int.self) : 3
        return PlaceHit(place: try place(row), matchedName: try random[7].decode(String.self), quality: quality)
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
