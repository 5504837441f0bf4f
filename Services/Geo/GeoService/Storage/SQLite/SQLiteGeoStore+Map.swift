import Foundation
import GRDB

/// The map's reads: grid cells for clusters, pins in a box through the R*Tree, pins of a few users.
extension SQLiteGeoStore {
    /// The map's reads, each one read transaction: GRDB's transactions take no `await` inside them, and the single
    /// writer moves little between the reads of one map.
    func readMap<T: Sendable>(_ body: @Sendable (any GeoMapReader) async throws -> T) async throws -> T {
        try await body(SQLiteMapReader(store: self))
    }

    /// Pins inside a box, at most `limit`.
    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        try await read { db in try MapSnapshot(db: db).points(in: box, limit: limit) }
    }

    /// The non-empty cells of the grid inside a box.
    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount] {
        try await read { db in try MapSnapshot(db: db).cells(grid, in: box) }
    }
}

/// The map's reads on SQLite (``SQLiteGeoStore/readMap(_:)``).
struct SQLiteMapReader: GeoMapReader {
    let store: SQLiteGeoStore

    func colorScheme(of userID: String) async throws -> ColorScheme {
        try await store.read { db in try MapSnapshot(db: db).colorScheme(of: userID) }
    }

    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String> {
        try await store.read { db in try MapSnapshot(db: db).unlistedToStrangers(among: userIDs) }
    }

    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount] {
        try await store.cells(grid, in: box)
    }

    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        try await store.points(in: box, limit: limit)
    }

    func points(of users: [String], in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        try await store.read { db in try MapSnapshot(db: db).points(of: users, in: box, limit: limit) }
    }
}

/// The map's queries inside one read transaction.
struct MapSnapshot {
    fileprivate let db: Database

    /// What the viewer chose: colours per category and per pin.
    func colorScheme(of userID: String) throws -> ColorScheme {
        try SQLiteGeoStore.colorScheme(db, userID)
    }

    /// Those of `userIDs` who asked not to be named to strangers.
    func unlistedToStrangers(among userIDs: [String]) throws -> Set<String> {
        try SQLiteGeoStore.unlistedToStrangers(db, among: userIDs)
    }

    /// The non-empty cells of the grid inside a box (both sides of the antimeridian).
    func cells(_ grid: MapGrid, in box: BoundingBox) throws -> [CellCount] {
        var cells: [CellCount] = []
        let statement = try db.cachedStatement(
            sql: """
                SELECT x, y, count, sum_lat, sum_lon FROM pin_cells
                WHERE zoom = ? AND x BETWEEN ? AND ? AND y BETWEEN ? AND ?
                """)
        for range in grid.cellRanges(box) {
            let rows = try Row.fetchCursor(
                statement,
                arguments: [
                    grid.zoom, range.x.lowerBound, range.x.upperBound, range.y.lowerBound, range.y.upperBound,
                ]
            )
            while let row = try rows.next() {
                cells.append(
                    CellCount(
                        cell: MapGrid.Cell(x: row[0], y: row[1]), count: row[2], sumLatitude: row[3],
                        sumLongitude: row[4]))
            }
        }
        return cells
    }

    /// Pins inside a box, at most `limit` (the caller asks for one more than it shows, to see overflow).
    func points(in box: BoundingBox, limit: Int) throws -> [MapPoint] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT p.id, p.user_id, p.latitude, p.longitude, p.place_name
                FROM pins_rtree r JOIN pins p ON p.id = r.id
                WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
                LIMIT ?
                """)
        var points: [MapPoint] = []
        for range in box.longitudeRanges where points.count < limit {
            let rows = try Row.fetchCursor(
                statement, arguments: [box.south, box.north, range.lowerBound, range.upperBound, limit - points.count])
            while let row = try rows.next() {
                let point = MapPoint(
                    id: row[0], userId: row[1], latitude: row[2], longitude: row[3], placeName: row[4])
                // The R*Tree stores 32-bit bounds rounded outwards: check the exact coordinates.
                if box.contains(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
            }
        }
        return points
    }

    /// The pins of some users (me, my friends) inside a box: for each user, the latitude band of
    /// `pins_by_user_and_latitude`, which also holds every column read here.
    ///
    /// The users drive a join instead of an `IN (SELECT ...)`, which SQLite would first copy into a temporary
    /// b-tree (a pager opened and closed per query). The users may be given in any order and more than once: listed
    /// here once each and sorted, they come back by user, then by latitude.
    func points(of users: [String], in box: BoundingBox, limit: Int) throws -> [MapPoint] {
        guard !users.isEmpty else { return [] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT p.id, p.user_id, p.latitude, p.longitude, p.place_name
                    FROM json_each(?) AS wanted CROSS JOIN pins AS p ON p.user_id = wanted.value
                    WHERE p.latitude BETWEEN ? AND ?
                    LIMIT ?
                    """),
            arguments: [StoredJSON.array(Set(users).sorted()), box.south, box.north, limit])
        var points: [MapPoint] = []
        while let row = try rows.next() {
            let point = MapPoint(id: row[0], userId: row[1], latitude: row[2], longitude: row[3], placeName: row[4])
            if box.contains(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
        }
        return points
    }
}
