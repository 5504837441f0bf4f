import Foundation

/// What a pin made from coordinates alone is called (a pin dropped on the map): the nearest gazetteer place's name
/// when it is close enough to stand for the spot, and its country and region a little further out. Far from any
/// place (the open sea, an icecap) a pin gets none of them.
enum ReverseLookup {
    /// The nearest place within this many metres gives a pin its country and region (`GeoStore.nearestPlace`'s
    /// search radius).
    static let regionRadius = 100_000.0
    /// ...and within this many its name: GeoNames' places of 500+ people lie a few km apart where people live, so a
    /// place further than this is another place, not the one pinned.
    static let namingRadius = 25_000.0

    /// The name, country and region a pin at a point gets from the place nearest to it (if any within
    /// ``regionRadius``).
    struct Naming: Equatable, Sendable {
        var name: String?
        var countryCode: String?
        var region: String?
    }

    static func naming(latitude: Double, longitude: Double, nearest: PlaceRecord?) -> Naming {
        guard let nearest else { return Naming() }
        let distance = Geodesy.distance(latitude, longitude, nearest.latitude, nearest.longitude)
        guard distance <= regionRadius else { return Naming() }
        return Naming(
            name: distance <= namingRadius ? nearest.name : nil, countryCode: nearest.countryCode,
            region: nearest.region)
    }
}
