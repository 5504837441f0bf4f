/// Who pinned around a place, in the order the who-visited list shows them: friends first, then by how many pins
/// they have there, then by how near their nearest pin is.
enum Visitors {
    /// One visitor's share of the area.
    struct Tally: Sendable, Equatable {
        var count: Int
        /// Metres from the centre to the nearest of their pins.
        var distance: Double
    }

    /// A visitor as ranked.
    struct Ranked: Sendable, Equatable {
        var id: String
        var friend: Bool
        var count: Int
        var distance: Double
    }

    /// Each user's pins within `radius` metres of the centre, but the viewer's own.
    static func tally(
        _ points: [MapPoint], latitude: Double, longitude: Double, radius: Double, except viewer: String
    ) -> [String: Tally] {
        var byUser: [String: Tally] = [:]
        for point in points where point.userId != viewer {
            let distance = Geodesy.distance(latitude, longitude, point.latitude, point.longitude)
            guard distance <= radius else { continue }
            let current = byUser[point.userId] ?? Tally(count: 0, distance: .infinity)
            byUser[point.userId] = Tally(count: current.count + 1, distance: min(current.distance, distance))
        }
        return byUser
    }

    /// The visitors to list, ranked: users blocked either way are left out, and so are strangers who asked not to
    /// be named to strangers (`unlisted`; they are only counted).
    static func rank(_ tallies: [String: Tally], standing: [String: Standing], unlisted: Set<String>) -> [Ranked] {
        tallies
            .filter { standing[$0.key]?.blocked != true && !unlisted.contains($0.key) }
            .map {
                Ranked(
                    id: $0.key, friend: standing[$0.key]?.friends == true, count: $0.value.count,
                    distance: $0.value.distance)
            }
            .sorted { a, b in
                if a.friend != b.friend { return a.friend }
                if a.count != b.count { return a.count > b.count }
                if a.distance != b.distance { return a.distance < b.distance }
                return a.id < b.id
            }
    }
}
