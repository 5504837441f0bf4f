import Foundation

/// Great-circle distances on the WGS 84 mean sphere.
enum Geodesy {
    /// The mean Earth radius in metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two points given in degrees.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }
}

/// A map viewport or search area in degrees. `west > east` means the box crosses the antimeridian.
struct BoundingBox: Sendable, Equatable {
    var west: Double
    var south: Double
    var east: Double
    var north: Double

    /// The longitude ranges the box covers: two when it crosses the antimeridian.
    var longitudeRanges: [ClosedRange<Double>] {
        west <= east ? [west...east] : [west...180, -180...east]
    }

    func contains(latitude: Double, longitude: Double) -> Bool {
        (south...north).contains(latitude) && longitudeRanges.contains { $0.contains(longitude) }
    }

    /// The smallest box holding the circle of `radius` metres around a point (whole longitudes near a pole).
    static func around(latitude: Double, longitude: Double, radius: Double) -> BoundingBox {
        let dLat = radius / Geodesy.earthRadius * 180 / .pi
        let south = max(-90, latitude - dLat)
        let north = min(90, latitude + dLat)
        let cosine = cos(max(abs(south), abs(north)) * .pi / 180)
        guard cosine > 1e-9, dLat / cosine < 180 else {
            return BoundingBox(west: -180, south: south, east: 180, north: north)
        }
        let dLon = dLat / cosine
        var west = longitude - dLon
        var east = longitude + dLon
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        return BoundingBox(west: west, south: south, east: east, north: north)
    }
}

/// The clustering grid: at zoom z the world is cut into `8 << z` columns and half as many rows of equal
/// degrees, the same cells `pin_cells` counts (see the migration); zooms above ``maximumClusterZoom`` show pins.
struct MapGrid: Sendable, Equatable {
    static let maximumClusterZoom = 12
    let zoom: Int

    init(zoom: Int) {
        self.zoom = min(max(zoom, 0), Self.maximumClusterZoom)
    }

    var columns: Int { 8 << zoom }
    var rows: Int { columns / 2 }
    var cellDegrees: Double { 360 / Double(columns) }

    struct Cell: Hashable, Sendable {
        var x: Int
        var y: Int
    }

    /// The cell of a point, computed exactly as the SQL triggers do.
    func cell(latitude: Double, longitude: Double) -> Cell {
        Cell(
            x: min(Int((longitude + 180) * Double(columns) / 360.0), columns - 1),
            y: min(Int((latitude + 90) * Double(columns) / 360.0), rows - 1))
    }

    /// Column and row ranges covering a box (two column ranges across the antimeridian).
    func cellRanges(_ box: BoundingBox) -> [(x: ClosedRange<Int>, y: ClosedRange<Int>)] {
        let rows = cell(latitude: box.south, longitude: 0).y...cell(latitude: box.north, longitude: 0).y
        return box.longitudeRanges.map { range in
            (cell(latitude: 0, longitude: range.lowerBound).x...cell(latitude: 0, longitude: range.upperBound).x, rows)
        }
    }

    /// The bounds of a cell, for fetching the one pin of a single-pin cell.
    func bounds(_ cell: Cell) -> BoundingBox {
        BoundingBox(
            west: Double(cell.x) * cellDegrees - 180, south: Double(cell.y) * cellDegrees - 90,
            east: Double(cell.x + 1) * cellDegrees - 180, north: Double(cell.y + 1) * cellDegrees - 90)
    }
}

extension MapGrid {
    /// The zoom at which the box's width is one world tile.
    static func fittingZoom(_ box: BoundingBox) -> Int {
        let width = box.west <= box.east ? box.east - box.west : 360 - (box.west - box.east)
        guard width > 0 else { return 22 }
        return min(22, max(0, Int(log2(360 / width))))
    }

    /// The clustering grid: the zoom asked for, but never finer than about 64 cells across the box, so a
    /// whole-world box at a high zoom is still one small answer.
    static func clustering(zoom: Int, box: BoundingBox) -> MapGrid {
        MapGrid(zoom: min(zoom, fittingZoom(box) + 2))
    }
}
