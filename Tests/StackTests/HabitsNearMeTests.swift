import Foundation
import HabitsService
import PlatformKit
import TestSupport
import Testing

/// "Near me" in the habit history is a true 5 km circle in every direction (haversine, `<=`); an empty
/// habit selection is an empty page.
@Suite struct HabitsNearMeTests {
    static let earthRadius = 6_371_008.8
    static let home = (latitude: 53.5461, longitude: -113.4938)

    /// The point `metres` from home on the great circle with initial bearing `degrees` (0 = north, 90 = east).
    static func point(_ metres: Double, bearing degrees: Double) -> EventBody.Location {
        let φ1 = home.latitude * .pi / 180, λ1 = home.longitude * .pi / 180
        let θ = degrees * .pi / 180, δ = metres / earthRadius
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return .init(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }

    static let directions: [(name: String, bearing: Double)] = [
        ("N", 0), ("NE", 45), ("E", 90), ("SE", 135), ("S", 180), ("SW", 225), ("W", 270), ("NW", 315),
    ]

    @Test func nearMeIsACircleInclusiveAtItsEdgeInEveryDirection() async throws {
        try await HabitsWorld.run(at: "2027-03-01T12:00:00Z") { world in
            let run = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            var day = try #require(LocalDay("2027-01-01"))
            var inside: Set<String> = []
            for direction in Self.directions {
                for metres in [4_999.0, 4_999.7, 4_999.99, 5_001.0] {
                    let comment = "\(direction.name) \(metres)"
                    try await world.recorded(
                        world.ann, run,
                        EventBody(
                            date: day.description, comment: comment,
                            location: Self.point(metres, bearing: direction.bearing)))
                    if metres < 5_000 { inside.insert(comment) }
                    day = day.adding(days: 1)
                }
            }
            let near = "?latitude=\(Self.home.latitude)&longitude=\(Self.home.longitude)&limit=100"
            let page = try await world.api.get(HabitsPaths.history + near, token: world.token(world.ann))
            #expect(page.status == 200, "\(page.text)")
            #expect(Set(try world.events(page).compactMap(\.comment)) == inside)
            let map = try await world.api.get(HabitsPaths.historyMap + near, token: world.token(world.ann))
            #expect(try map.decode(WireHabitEventMap.self).features.count == inside.count)
        }
    }

    @Test func anEmptyHabitSelectionIsAnEmptyPage() async throws {
        try await HabitsWorld.run(at: "2027-01-10T12:00:00Z") { world in
            let run = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            try await world.recorded(world.ann, run, EventBody(date: "2027-01-02"))
            for query in ["?habit=", "?habit=,", "?habit=&habit="] {
                let response = try await world.api.get(HabitsPaths.history + query, token: world.token(world.ann))
                #expect(response.status == 200, "\(query): \(response.text)")
                #expect(try world.events(response).isEmpty, "\(query)")
            }
            // no filter at all is every event
            let all = try await world.api.get(HabitsPaths.history, token: world.token(world.ann))
            #expect(try world.events(all).count == 1)
        }
    }
}
