import Foundation
import HabitsService
import PlatformKit
import TestSupport
import Testing

@Suite struct HabitsHistoryTests {
    /// Edmonton, and points due north at 4.9 km and 5.1 km (one degree of latitude is R·π/180 metres).
    static let home = (latitude: 53.5461, longitude: -113.4938)
    static func north(_ metres: Double) -> EventBody.Location {
        .init(latitude: home.latitude + metres / 6_371_008.8 * 180 / .pi, longitude: home.longitude)
    }

    @Test func historyIsNewestFirstWithPagesAndFilters() async throws {
        try await HabitsWorld.run(at: "2027-01-10T12:00:00Z") { world in
            let run = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let read = try await world.habit(world.ann, "Read", startDate: "2027-01-01")
            try await world.recorded(world.ann, run, EventBody(date: "2027-01-01", comment: "park loop"))
            try await world.recorded(world.ann, read, EventBody(date: "2027-01-02", comment: "Dune"))
            try await world.recorded(
                world.ann, run, EventBody(date: "2027-01-03", comment: "PARK 50%", location: Self.north(4_900)))
            try await world.recorded(world.ann, read, EventBody(date: "2027-01-04", location: Self.north(5_100)))
            try await world.recorded(world.ann, run, EventBody(date: "2027-01-05", location: Self.north(0)))
            let token = world.token(world.ann)
            func dates(_ query: String) async throws -> [String] {
                let response = try await world.api.get(HabitsPaths.history + query, token: token)
                #expect(response.status == 200, "\(response.text)")
                return try world.events(response).map(\.date)
            }
            #expect(try await dates("") == ["2027-01-05", "2027-01-04", "2027-01-03", "2027-01-02", "2027-01-01"])
            // pages
            let first = try await world.api.get(HabitsPaths.history + "?limit=2", token: token)
            let firstPage = try first.decode(WirePage<WireHabitEvent>.self)
            #expect(firstPage.items.count == 2)
            let cursor = try #require(firstPage.nextCursor)
            #expect(try await dates("?limit=2&cursor=\(cursor)") == ["2027-01-03", "2027-01-02"])
            #expect(try await world.api.get(HabitsPaths.history + "?cursor=bogus", token: token).status == 400)
            #expect(try await world.api.get(HabitsPaths.history + "?limit=101", token: token).status == 400)
            // by habit, one or several
            #expect(try await dates("?habit=\(read)") == ["2027-01-04", "2027-01-02"])
            #expect(try await dates("?habit=\(read),\(run)").count == 5)
            #expect(try await dates("?habit=\(read)&habit=\(run)").count == 5)
            // by comment text, case-insensitive, wildcards taken literally
            #expect(try await dates("?comment=park") == ["2027-01-03", "2027-01-01"])
            #expect(try await dates("?comment=50%25") == ["2027-01-03"])
            #expect(try await dates("?comment=%25") == ["2027-01-03"])
            #expect(try await dates("?comment=_") == [])
            // an empty search is refused (the user is asked for text)
            let empty = try await world.api.get(HabitsPaths.history + "?comment=%20", token: token)
            #expect(empty.status == 400)
            #expect(empty.problem?.code == "empty_search")
            // near me: within 5 km
            let near = "?latitude=\(Self.home.latitude)&longitude=\(Self.home.longitude)"
            #expect(try await dates(near) == ["2027-01-05", "2027-01-03"])
            #expect(try await dates(near + "&habit=\(run)&comment=park") == ["2027-01-03"])
            // a missing or broken position is a clear error
            #expect(
                try await world.api.get(HabitsPaths.history + "?latitude=53", token: token).problem?.code
                    == "invalid_location")
            #expect(
                try await world.api.get(HabitsPaths.history + "?latitude=91&longitude=0", token: token).problem?.code
                    == "invalid_latitude")
            #expect(try await world.api.get(HabitsPaths.history + "?tab=everyone", token: token).status == 400)
            // the map: GeoJSON of located events, longitude first
            let map = try await world.api.get(HabitsPaths.historyMap, token: token)
            let collection = try map.decode(WireHabitEventMap.self)
            #expect(collection.type == "FeatureCollection")
            let features = collection.features
            #expect(features.count == 3)
            let geometry = try #require(features.first?.geometry)
            #expect(geometry.type == "Point")
            #expect(geometry.coordinates.first == Self.home.longitude)
            let nearMap = try await world.api.get(HabitsPaths.historyMap + near, token: token)
            #expect(try nearMap.decode(WireHabitEventMap.self).features.count == 2)
            // nobody else's history includes ann's events
            #expect(
                try world.events(
                    try await world.api.get(HabitsPaths.history + "?tab=all", token: world.token(world.bob))
                )
                .isEmpty)
        }
    }

    @Test func friendsTabShowsTheLatestEventPerHabitOfApprovedFollowsOnly() async throws {
        try await HabitsWorld.run(at: "2027-01-10T12:00:00Z") { world in
            let bobRun = try await world.habit(world.bob, "Bob runs", startDate: "2027-01-01")
            let bobRead = try await world.habit(world.bob, "Bob reads", startDate: "2027-01-01")
            let catSwim = try await world.habit(world.cat, "Cat swims", startDate: "2027-01-01")
            let annYoga = try await world.habit(world.ann, "Ann yoga", startDate: "2027-01-01")
            for day in ["2027-01-01", "2027-01-02", "2027-01-03"] {
                try await world.recorded(world.bob, bobRun, EventBody(date: day))
            }
            try await world.recorded(world.bob, bobRead, EventBody(date: "2027-01-02"))
            try await world.recorded(world.cat, catSwim, EventBody(date: "2027-01-04"))
            try await world.recorded(world.ann, annYoga, EventBody(date: "2027-01-05"))
            let token = world.token(world.ann)
            func events(_ tab: String) async throws -> [String] {
                let response = try await world.api.get(HabitsPaths.history + "?tab=\(tab)", token: token)
                #expect(response.status == 200, "\(response.text)")
                return try world.events(response).map { "\($0.habitTitle) \($0.date)" }
            }
            func following(_ token: String) async throws -> [WireFollowedHabit] {
                try await world.api.get(HabitsPaths.following, token: token).decode(WireItems<WireFollowedHabit>.self)
                    .items
            }
            // a pending request shows nothing
            _ = try await world.api.post(SocialPaths.follows, token: token, json: ["username": "cat"])
            #expect(try await events("friends").isEmpty)
            #expect(try await following(token).isEmpty)
            // approved by bob (within a day, the latest recorded comes first)
            let approved = try await world.api.post(
                "\(SocialPaths.followRequests)/\(world.ann.id)/approve", token: world.token(world.bob))
            #expect(approved.status == 404)  // ann never asked bob
            try await world.follow(world.ann, approvedBy: world.bob)
            #expect(try await events("friends") == ["Bob runs 2027-01-03", "Bob reads 2027-01-02"])
            #expect(
                try await events("all") == [
                    "Ann yoga 2027-01-05", "Bob runs 2027-01-03", "Bob reads 2027-01-02", "Bob runs 2027-01-02",
                    "Bob runs 2027-01-01",
                ])
            #expect(try await events("mine") == ["Ann yoga 2027-01-05"])
            // pages of the all tab continue where the last one ended
            let firstPage = try await world.api.get(HabitsPaths.history + "?tab=all&limit=2", token: token)
            let allFirst = try firstPage.decode(WirePage<WireHabitEvent>.self)
            #expect(allFirst.items.map(\.date) == ["2027-01-05", "2027-01-03"])
            let next = try #require(allFirst.nextCursor)
            let secondPage = try await world.api.get(
                HabitsPaths.history + "?tab=all&limit=2&cursor=\(next)", token: token)
            #expect(try world.events(secondPage).map(\.habitTitle) == ["Bob reads", "Bob runs"])
            // filters apply to the friends tab too
            let filtered = try await world.api.get(HabitsPaths.history + "?tab=friends&habit=\(bobRead)", token: token)
            #expect(try world.events(filtered).count == 1)
            // following: bob's habits with title and status, not cat's
            let followed = try await world.api.get(HabitsPaths.following, token: token)
            let habits = try followed.decode(WireItems<WireFollowedHabit>.self).items
            #expect(habits.map(\.title) == ["Bob runs", "Bob reads"])
            #expect(habits.allSatisfy { $0.ownerId == world.bob.id })
            #expect(habits.allSatisfy { ["on_track", "behind", "no_events_yet"].contains($0.status) })
            // nothing private: the reason is not part of a followed habit
            #expect(!followed.text.contains("\"reason\""))
            // following is one way: bob sees nothing of ann
            #expect(try await following(world.token(world.bob)).isEmpty)
            #expect(
                try world.events(
                    try await world.api.get(HabitsPaths.history + "?tab=friends", token: world.token(world.bob))
                )
                .isEmpty)
            // a follower still cannot open the habit itself
            #expect(try await world.api.get("\(HabitsPaths.habits)/\(bobRun)", token: token).status == 404)
            // once bob removes ann as a follower, she sees nothing again
            #expect(
                try await world.api.delete("\(SocialPaths.followers)/\(world.ann.id)", token: world.token(world.bob))
                    .status == 204)
            #expect(try await events("friends").isEmpty)
            #expect(try await following(token).isEmpty)
        }
    }
}

@Suite struct HabitsSocialOutageTests {
    @Test func anUnreachableSocialServiceIsA503NotAHang() async throws {
        try await withTestStack(services: [
            .habits: { settings in
                try await buildHabitsApplication(
                    HabitsConfiguration(settings: settings, socialURL: "http://127.0.0.1:1"))
            }
        ]) { stack in
            let ann = try await stack.register("ann")
            for path in [HabitsPaths.following, HabitsPaths.history + "?tab=friends", HabitsPaths.history + "?tab=all"]
            {
                let response = try await stack.gateway.get(path, token: ann.accessToken)
                #expect(response.status == 503)
                #expect(response.problem?.code == "service_unavailable")
            }
            // my own tab does not need the social graph
            #expect(try await stack.gateway.get(HabitsPaths.history, token: ann.accessToken).status == 200)
        }
    }
}
