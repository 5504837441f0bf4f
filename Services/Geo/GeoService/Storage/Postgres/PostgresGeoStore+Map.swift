import Foundation
import PostgresNIO
import ServiceKit

/// The map's reads: grid cells for clusters, pins in a box through the GiST index, pins of a few users.
extension PostgresGeoStore {
    /// The map's reads in one REPEATABLE READ transaction: one snapshot, so cell counts and the pins shown agree.
    func readMap<T: Sendable>(_ body: @Sendable (any GeoMapReader) async throws -> T) async throws -> T {
        try await write(.repeatableRead) { session in try await body(PostgresMapReader(session: session)) }
    }

    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        try await read { session in try await PostgresMapReader(session: session).points(in: box, limit: limit) }
    }

    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount] {
        try await read { session in try await PostgresMapReader(session: session).cells(grid, in: box) }
    }
}

/// The map's queries on one session (``PostgresGeoStore/readMap(_:)``).
struct PostgresMapReader: GeoMapReader {
    let session: PostgresSession

    func colorScheme(of userID: String) async throws -> ColorScheme {
        try await PostgresGeoStore.colorScheme(session, userID)
    }

    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String> {
        try await PostgresGeoStore.unlistedToStrangers(session, among: userIDs)
    }

    /// The non-empty cells of the grid inside a box (both sides of the antimeridian).
    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount] {
        var cells: [CellCount] = []
        for range in grid.cellRanges(box) {
            for row in try await session.rows(
                """
                SELECT x, y, count, sum_lat, sum_lon FROM pin_cells
                WHERE zoom = \(grid.zoom) AND x BETWEEN \(Int64(range.x.lowerBound)) AND \(Int64(range.x.upperBound))
                    AND y BETWEEN \(Int64(range.y.lowerBound)) AND \(Int64(range.y.upperBound))
                ORDER BY x, y
                """)
            {
                let (x, y, count, sumLatitude, sumLongitude) = try row.decode((Int, Int, Int, Double, Double).self)
                cells.append(
                    CellCount(
                        cell: MapGrid.Cell(x: x, y: y), count: count, sumLatitude: sumLatitude,
                        sumLongitude: sumLongitude))
            }
        }
        return cells
    }

    /// Pins inside a box, at most `limit` (the caller asks for one more than it shows, to see overflow): the GiST
    /// index's box (fuzzy by 1e-6, wider) then the exact coordinates, as SQLite's R*Tree (rounded outwards) then
    /// the same check.
    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        var points: [MapPoint] = []
        for range in box.longitudeRanges where points.count < limit {
            for row in try await session.rows(
                """
                SELECT id, user_id, latitude, longitude, place_name FROM pins
                WHERE point(longitude, latitude)
                    <@ box(point(\(range.lowerBound), \(box.south)), point(\(range.upperBound), \(box.north)))
                LIMIT \(limit - points.count)
                """)
            {
                let point = try Self.point(row)
                if box.contains(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
            }
        }
        return points
    }

    /// The pins of some users inside a box: each user's latitude band of `pins_by_user_and_latitude`, by user then
    /// latitude (the index's order, SQLite's answer), the `limit` first of the band before the longitude check, as
    /// SQLite's.
    func points(of users: [String], in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        guard !users.isEmpty else { return [] }
        let wanted = Set(users).filter { !PostgresGeoStore.holdsNUL($0) }.sorted()
        return try await session.rows(
            """
            SELECT id, user_id, latitude, longitude, place_name FROM pins
            WHERE user_id = ANY(\(wanted)) AND latitude BETWEEN \(box.south) AND \(box.north)
            ORDER BY user_id, latitude, longitude, place_name, id
            LIMIT \(limit)
            """
        ).map(Self.point).filter { box.contains(latitude: $0.latitude, longitude: $0.longitude) }
    }

    static func point(_ row: PostgresRow) throws -> MapPoint {
        let (id, userID, latitude, longitude, placeName) = try row.decode((Int64, String, Double, Double, String).self)
        return MapPoint(id: id, userId: userID, latitude: latitude, longitude: longitude, placeName: placeName)
    }
}
