/// One pin on the map as the map query reads it: decoded by column, no record machinery on the hot path.
struct MapPoint: Sendable, Equatable {
    var id: Int64
    var userId: String
    var latitude: Double
    var longitude: Double
    var placeName: String
}

/// One non-empty grid cell: how many pins and their centroid.
struct CellCount: Sendable, Equatable {
    var cell: MapGrid.Cell
    var count: Int
    var sumLatitude: Double
    var sumLongitude: Double
}
