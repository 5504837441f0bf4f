import Foundation

/// Great-circle distances and the bounding boxes that pre-filter them (WGS 84 on a sphere).
enum Geo {
    static let earthRadius = 6_371_008.8
    /// "Near me" in the habit history: within 5 km.
    static let nearRadius = 5_000.0
    /// Degrees added around a box queried in the R*Tree, whose 32-bit coordinates are off by up to ~1.5e-5°.
    static let rtreeMargin = 0.0001

    /// The haversine distance in metres.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dLat = (lat2 - lat1) * .pi / 180
        let dLon = (lon2 - lon1) * .pi / 180
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLon / 2)
            * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    /// A latitude/longitude box that contains every point within `radius` of the centre; near the poles
    /// or the antimeridian it widens to the whole longitude range rather than wrap.
    static func box(latitude: Double, longitude: Double, radius: Double)
        -> (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)
    {
        let dLat = radius / earthRadius * 180 / .pi
        let minLat = max(-90, latitude - dLat)
        let maxLat = min(90, latitude + dLat)
        let cosine = cos(max(abs(minLat), abs(maxLat)) * .pi / 180)
        guard cosine > 0.01 else { return (minLat, maxLat, -180, 180) }
        let dLon = dLat / cosine
        guard longitude - dLon >= -180, longitude + dLon <= 180 else { return (minLat, maxLat, -180, 180) }
        return (minLat, maxLat, longitude - dLon, longitude + dLon)
    }
}
