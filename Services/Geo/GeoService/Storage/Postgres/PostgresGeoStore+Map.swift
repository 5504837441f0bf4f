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
                Prepared<CellsInRange>(
                    Int64(grid.zoom), Int64(range.x.lowerBound), Int64(range.x.upperBound), Int64(range.y.lowerBound),
                    Int64(range.y.upperBound)))
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
                Prepared<PinsInBox>(range.lowerBound, box.south, range.upperBound, box.north, Int64(limit - points.count)))
            {
                let point = try Self.point(row)
                if box.contains(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
            }
        }
        return points
    }

    /// The pins inside each box in one statement (the lone pins of a clustered map, one box per cell): each box's
    /// longitude ranges through the GiST index, as ``points(in:limit:)`` reads them one by one.
    func points(inEach boxes: [(box: BoundingBox, limit: Int)]) async throws -> [[MapPoint]] {
        var ranges = PinsInBoxes()
        var boxOfRange: [Int] = []
        for (index, (box, limit)) in boxes.enumerated() {
            for range in box.longitudeRanges {
                ranges.west.append(range.lowerBound)
                ranges.south.append(box.south)
                ranges.east.append(range.upperBound)
                ranges.north.append(box.north)
                ranges.limit.append(Int64(max(limit, 0)))
                boxOfRange.append(index)
            }
        }
        var found = [[MapPoint]](repeating: [], count: boxes.count)
        guard !boxOfRange.isEmpty else { return found }
        for (range, point) in try await session.rows(ranges) {
            guard let place = Int(exactly: range - 1), boxOfRange.indices.contains(place) else { continue }
            let index = boxOfRange[place]
            let (box, limit) = boxes[index]
            if found[index].count < limit, box.contains(latitude: point.latitude, longitude: point.longitude) {
                found[index].append(point)
            }
        }
        return found
    }

    /// Pins inside each of several boxes (longitude ranges), at most each one's limit, by box.
    struct PinsInBoxes: PostgresPreparedStatement {
        static let sql = """
            SELECT k.n, p.id, p.user_id, p.latitude, p.longitude, p.place_name
            FROM unnest($1::float8[], $2::float8[], $3::float8[], $4::float8[], $5::bigint[])
                WITH ORDINALITY AS k(west, south, east, north, wanted, n)
            CROSS JOIN LATERAL (
                SELECT id, user_id, latitude, longitude, place_name FROM pins
                WHERE point(longitude, latitude) <@ box(point(k.west, k.south), point(k.east, k.north))
                LIMIT k.wanted) p
            ORDER BY k.n
            """
        var west: [Double] = []
        var south: [Double] = []
        var east: [Double] = []
        var north: [Double] = []
        var limit: [Int64] = []

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(west)
            bindings.append(south)
            bindings.append(east)
            bindings.append(north)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int64, MapPoint) {
            let (range, id, userID, latitude, longitude, placeName) = try row.decode(
                (Int64, Int64, String, Double, Double, String).self)
            return (range, MapPoint(id: id, userId: userID, latitude: latitude, longitude: longitude, placeName: placeName))
        }
    }

    /// The pins of some users inside a box: each user's latitude band of `pins_by_user_and_latitude`, by user then
    /// latitude (the index's order, SQLite's answer), the `limit` first of the band before the longitude check, as
    /// SQLite's.
    func points(of users: [String], in box: BoundingBox, limit: Int) async throws -> [MapPoint] {
        guard !users.isEmpty else { return [] }
        let wanted = Set(users).filter { !PostgresGeoStore.holdsNUL($0) }.sorted()
        return try await session.rows(Prepared<PinsOfUsers>(wanted, box.south, box.north, Int64(limit)))
            .map(Self.point).filter { box.contains(latitude: $0.latitude, longitude: $0.longitude) }
    }

    // Read on every map: prepared.

    enum CellsInRange: PreparedSQL {
        static let sql = """
            SELECT x, y, count, sum_lat, sum_lon FROM pin_cells
            WHERE zoom = $1 AND x BETWEEN $2 AND $3 AND y BETWEEN $4 AND $5
            ORDER BY x, y
            """
    }

    enum PinsInBox: PreparedSQL {
        static let sql = """
            SELECT id, user_id, latitude, longitude, place_name FROM pins
            WHERE point(longitude, latitude) <@ box(point($1, $2), point($3, $4))
            LIMIT $5
            """
    }

    enum PinsOfUsers: PreparedSQL {
        static let sql = """
            SELECT id, user_id, latitude, longitude, place_name FROM pins
            WHERE user_id = ANY($1) AND latitude BETWEEN $2 AND $3
            ORDER BY user_id, latitude, longitude, place_name, id
            LIMIT $4
            """
    }

    static func point(_ row: PostgresRow) throws -> MapPoint {
        let (id, userID, latitude, longitude, placeName) = try row.decode((Int64, String, Double, Double, String).self)
        return MapPoint(id: id, userId: userID, latitude: latitude, longitude: longitude, placeName: placeName)
    }
}
