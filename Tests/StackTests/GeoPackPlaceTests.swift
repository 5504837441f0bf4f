import Foundation
import GeoService
import PlatformKit
import TestSupport
import Testing

/// Where packs are: the geofence of locked packs, and discover around a position.
@Suite struct GeoPackPlaceTests {
    @Test func aLockedPacksContentIsOnlyForClientsInsideItsRadius() async throws {
        try await GeoWorld.run { world in
            let locked = try await world.packID(world.ann, .init(name: "Dorm B", radiusMeters: 500, locked: true))
            let open = try await world.packID(world.ann, .init(name: "Quad", radiusMeters: 500))
            let inside = GeoWorld.atCampus(north: 250)
            let edge = GeoWorld.atCampus(north: 500)
            let outside = GeoWorld.atCampus(north: 502)
            let path = GeoPaths.packs + "/\(locked)"

            // Outside (or without a position) the pack is listed, its content is not.
            for position in [outside, []] {
                let pack = try await world.api.get(path, token: world.bob.accessToken, headers: position)
                #expect(pack.status == 200)
                let view = try pack.decode(WirePack.self)
                #expect(view.contentVisible == false)
                #expect(view.postCount == 0)
                let join = try await world.api.send(
                    .PUT, path + "/membership", token: world.bob.accessToken, headers: position)
                #expect(join.problem?.code == "outside_geofence")
            }
            let fromOutside = try await world.read(WirePack.self, world.bob, path, at: outside)
            #expect(fromOutside.inside == false)
            #expect(fromOutside.distanceMeters == 500, "502 m from the centre, shown rounded")

            // Inside, and exactly on the edge, count as in.
            for position in [inside, edge] {
                let pack = try await world.read(WirePack.self, world.bob, path, at: position)
                #expect(pack.contentVisible == true)
                #expect(pack.inside == true)
            }
            try await world.join(world.bob, locked, at: edge)
            let post = try await world.post(world.bob, locked, "Fire drill at 3", at: inside)
            try await world.join(world.bob, open, at: outside)
            let openPost = try await world.post(world.bob, open, "Open to all", at: outside)

            // From outside: no posts, no post, no comments, no votes, no writing; the open pack is unaffected.
            for position in [outside, []] {
                for route in [path + "/posts", GeoPaths.posts + "/\(post)", GeoPaths.posts + "/\(post)/comments"] {
                    let response = try await world.api.get(route, token: world.bob.accessToken, headers: position)
                    #expect(response.status == 403, "\(route)")
                    #expect(response.problem?.code == "outside_geofence")
                }
                #expect(try await world.sendPost(world.bob, locked, "x", at: position).status == 403)
                #expect(try await world.vote(world.ann, post, 1, at: position).status == 403)
                #expect(try await world.comment(world.ann, post, "x", at: position).status == 403)
                #expect(try await world.ids(world.bob, GeoPaths.feed, at: position) == [openPost])
                #expect(
                    try await world.ids(
                        WirePackComment.self, world.bob, GeoPaths.posts + "/\(openPost)/comments", at: position)
                        == [])
            }
            #expect(try await world.ids(world.bob, GeoPaths.feed, at: inside) == [openPost, post])
            #expect(try await world.ids(world.bob, path + "/posts", at: edge) == [post])
            #expect(try await world.vote(world.ann, post, 1, at: inside).status == 200)

            // Discover lists the locked pack from outside without content, and its posts only from inside.
            let discovered = try await world.read(
                WirePage<WirePack>.self, world.cat, GeoPaths.discover + "/packs", at: outside)
            let lockedView = try #require(discovered.items.first { $0.id == locked })
            #expect(lockedView.contentVisible == false)
            #expect(try await world.ids(world.cat, GeoPaths.discover + "/posts", at: outside) == [openPost])
            // Both packs share a centre: by distance, the older pack's posts come first.
            #expect(try await world.ids(world.cat, GeoPaths.discover + "/posts", at: inside) == [post, openPost])

            // My own post stays mine in the den from anywhere.
            #expect(try await world.ids(world.bob, GeoPaths.den + "/posts", at: outside) == [openPost, post])
        }
    }

    @Test func discoverFindsPacksNearMeSortedAndFiltered() async throws {
        try await GeoWorld.run { world in
            let here = GeoWorld.campus
            func pack(_ name: String, north metres: Double, tags: [String], radius: Int = 300) async throws -> String {
                try await world.packID(
                    world.ann,
                    .init(
                        name: name, latitude: here.latitude + metres / 6_371_008.8 * 180 / .pi,
                        longitude: here.longitude, radiusMeters: radius, tags: tags))
            }
            let near = try await pack("Near", north: 200, tags: ["coffee"])
            let middle = try await pack("Middle", north: 3_000, tags: ["study", "coffee"])
            let far = try await pack("Far", north: 8_000, tags: ["study"])
            let tooFar = try await pack("Too far", north: 30_000, tags: ["study"])
            // A huge pack whose centre is 20 km away but whose radius covers me.
            let around = try await pack("Around", north: 20_000, tags: ["city"], radius: 25_000)
            // Another user's admin pack far away in Tokyo is never near.
            let admin = try await world.makeAdmin(world.dan)
            _ = try await world.api.send(
                .POST, GeoPaths.packs, token: admin.accessToken,
                json: GeoWorld.NewPack(name: "Tokyo", latitude: 35.68, longitude: 139.76))

            let base = GeoPaths.discover + "/packs"
            #expect(try await world.ids(WirePack.self, world.bob, base) == [near, middle, far, around])
            #expect(try await world.ids(WirePack.self, world.bob, base + "?radius=5000") == [near, middle, around])
            #expect(
                try await world.ids(WirePack.self, world.bob, base + "?radius=50000") == [
                    near, middle, far, around, tooFar,
                ])
            #expect(
                try await world.ids(WirePack.self, world.bob, base + "?sort=created") == [around, far, middle, near])
            #expect(try await world.ids(WirePack.self, world.bob, base + "?tags=study") == [middle, far])
            #expect(
                try await world.ids(WirePack.self, world.bob, base + "?tags=coffee,city") == [near, middle, around])

            // Popularity: members and posts lift a pack.
            try await world.join(world.bob, far, at: GeoWorld.atCampus(north: 8_000))
            try await world.join(world.cat, far, at: GeoWorld.atCampus(north: 8_000))
            _ = try await world.post(world.bob, far, "Busy here", at: GeoWorld.atCampus(north: 8_000))
            try await world.join(world.bob, middle)
            let popular = try await world.ids(WirePack.self, world.bob, base + "?sort=popularity")
            #expect(popular.prefix(2) == [far, middle])

            // Pages of one.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await world.read(
                    WirePage<WirePack>.self, world.bob, base + "?limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""))
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == [near, middle, far, around])

            let distances = try await world.read(WirePage<WirePack>.self, world.bob, base).items.map(\.distanceMeters)
            #expect(distances == [200, 3_000, 8_000, 20_000])

            // Discover needs a position and sane parameters.
            #expect(try await world.api.get(base, token: world.bob.accessToken).problem?.code == "missing_position")
            for query in ["?radius=0", "?radius=60000", "?sort=nearest", "?tags=a%20b", "?limit=0"] {
                let response = try await world.api.get(
                    base + query, token: world.bob.accessToken, headers: GeoWorld.atCampus())
                #expect(response.status == 400, "\(query)")
            }
        }
    }

    @Test func discoverPostsByDistancePopularityAndCreation() async throws {
        try await GeoWorld.run { world in
            let near = try await world.packID(world.ann, .init(name: "Near", tags: ["coffee"]))
            let away = GeoWorld.atCampus(north: 4_000)
            let far = try await world.packID(
                world.ann,
                .init(name: "Far", latitude: GeoWorld.campus.latitude + 4_000 / 6_371_008.8 * 180 / .pi, tags: ["gym"]))
            let old = try await world.post(world.ann, near, "Old near")
            world.stack.clock.advance(by: 60)
            let farPost = try await world.post(world.ann, far, "Far post", tags: ["coffee"], at: away)
            world.stack.clock.advance(by: 60)
            let fresh = try await world.post(world.ann, near, "Fresh near")
            try await world.join(world.bob, far, at: away)
            try await world.join(world.cat, far, at: away)
            #expect(try await world.vote(world.bob, farPost, 1, at: away).status == 200)
            #expect(try await world.vote(world.cat, farPost, 1, at: away).status == 200)

            let base = GeoPaths.discover + "/posts"
            #expect(try await world.ids(world.dan, base) == [fresh, old, farPost])
            #expect(try await world.ids(world.dan, base + "?sort=created") == [fresh, farPost, old])
            #expect(try await world.ids(world.dan, base + "?sort=popularity") == [farPost, fresh, old])
            #expect(try await world.ids(world.dan, base + "?tags=gym") == [farPost])
            #expect(try await world.ids(world.dan, base + "?tags=coffee") == [fresh, old, farPost])
            #expect(try await world.ids(world.dan, base + "?radius=1000") == [fresh, old])
            let firstPage = try await world.read(WirePage<WirePackPost>.self, world.dan, base + "?limit=2")
            let cursor = try #require(firstPage.nextCursor)
            #expect(try await world.ids(world.dan, base + "?limit=2&cursor=\(cursor)") == [farPost])
        }
    }
}
