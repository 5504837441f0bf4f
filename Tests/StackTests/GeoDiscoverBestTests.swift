import Foundation
import PlatformKit
import TestSupport
import Testing

/// Discover's `sort=best`: `(1 + points) · ½^(age / 12 h) · (1 − ½ · min(1, distance / radius))`, on fixed data
/// with the expected order and scores written out (search radius 10 km from the campus).
@Suite struct GeoDiscoverBestTests {
    static func north(_ metres: Double) -> (Double, Double) {
        (GeoWorld.campus.latitude + metres / 6_371_008.8 * 180 / .pi, GeoWorld.campus.longitude)
    }

    @Test func packsRankByPopularityAgeAndDistanceTogether() async throws {
        try await GeoWorld.run { world in
            let clock = world.stack.clock
            let (popularLatitude, _) = Self.north(2_000)
            let (farLatitude, _) = Self.north(8_000)
            // 18 h ago: "Old" at the campus with one more member
            let old = try await world.packID(world.ann, .init(name: "Old"))
            try await world.join(world.cat, old)
            clock.advance(by: 6 * 3600)
            // 12 h ago: "Popular" 2 km away, with two more members
            var (bob, cat, dan) = (try await world.renew(world.bob), try await world.renew(world.cat), world.dan)
            dan = try await world.renew(dan)
            let popular = try await world.packID(bob, .init(name: "Popular", latitude: popularLatitude))
            try await world.join(cat, popular)
            try await world.join(dan, popular)
            clock.advance(by: 12 * 3600)
            // now: "Far" 8 km away and "Fresh" at the campus, nobody else
            (cat, dan) = (try await world.renew(cat), try await world.renew(dan))
            let far = try await world.packID(cat, .init(name: "Far", latitude: farLatitude))
            let fresh = try await world.packID(dan, .init(name: "Fresh"))
            // Popular (1 + 2) · ½ · 0.9 = 1.35; Fresh 1 · 1 · 1 = 1; Old (1 + 1) · ½^1.5 · 1 = 0.71; Far 1 · 1 · 0.6 = 0.6
            let ann = try await world.renew(world.ann)
            let query = GeoPaths.discover + "/packs?radius=10000&sort="
            #expect(try await world.ids(WirePack.self, ann, query + "best") == [popular, fresh, old, far])
            // each ingredient alone orders them otherwise
            #expect(try await world.ids(WirePack.self, ann, query + "popularity") == [popular, old, fresh, far])
            #expect(try await world.ids(WirePack.self, ann, query + "created") == [fresh, far, popular, old])
            #expect(try await world.ids(WirePack.self, ann, query + "distance").last == far)
            // and it pages
            let first = try await world.read(WirePage<WirePack>.self, ann, query + "best&limit=3")
            let cursor = try #require(first.nextCursor)
            #expect(
                try await world.ids(WirePack.self, ann, query + "best&limit=3&cursor=\(cursor)") == [far])
        }
    }

    @Test func postsRankByTheirOwnPopularityAgeAndTheirPacksDistance() async throws {
        try await GeoWorld.run { world in
            let clock = world.stack.clock
            let (farLatitude, _) = Self.north(8_000)
            let near = try await world.packID(world.ann, .init(name: "Near"))
            let far = try await world.packID(world.bob, .init(name: "Far", latitude: farLatitude))
            try await world.join(world.bob, near)
            try await world.join(world.ann, far)
            // twelve hours ago, at the campus: a post that got two comments
            let discussed = try await world.post(world.bob, near, "Lost cat")
            for _ in 0..<2 { #expect(try await world.comment(world.ann, discussed, "Seen it").status == 201) }
            clock.advance(by: 12 * 3600)
            let (ann, bob) = (try await world.renew(world.ann), try await world.renew(world.bob))
            // now: a quiet post at the campus, and one with a comment 8 km away
            let quiet = try await world.post(ann, near, "Coffee?")
            let remote = try await world.post(ann, far, "Sunset")
            #expect(try await world.comment(bob, remote, "Nice").status == 201)
            // discussed (1 + 4) · ½ · 1 = 2.5; remote (1 + 2) · 1 · 0.6 = 1.8; quiet 1 · 1 · 1 = 1
            let best = try await world.ids(ann, GeoPaths.discover + "/posts?sort=best&radius=10000")
            #expect(best == [discussed, remote, quiet])
        }
    }
}
