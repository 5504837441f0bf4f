import Foundation
import PlatformKit
import TestSupport
import Testing

/// Chores through the gateway: rotation over weeks, late completions, history and statistics.
@Suite struct HouseholdChoreTests {
    func today(_ world: HouseholdWorld) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: world.stack.clock.now)
    }

    @Test func aWeeklyRotatingChoreGoesRoundTheHouseForWeeks() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let order = [world.cat.id, world.ann.id, world.bob.id]
            let created = try await world.api.post(
                world.path(id, "/chores"), token: world.token(world.ann),
                json: ChoreBody(
                    name: "Take out the trash", schedule: .init(kind: "weekly", weekdays: [1, 2, 3, 4, 5, 6, 7]),
                    assignment: .init(kind: "rotating", order: order)))
            #expect(created.status == 201)
            let createdChore = try created.decode(WireChore.self)
            let chore = createdChore.id
            #expect(createdChore.assigneeId == world.cat.id)
            #expect(createdChore.points == 2, "the catalogue's points")
            var assignees: [String] = []
            for week in 0..<6 {
                let doer = [world.cat, world.ann, world.bob][week % 3]
                let done = try await world.api.post(
                    world.path(id, "/chores/\(chore)/completions"), token: world.token(doer),
                    json: ["note": "week \(week)"])
                #expect(done.status == 201)
                assignees.append(try done.decode(WireCompletionResult.self).chore.assigneeId ?? "")
                try await world.advance(days: 7)
            }
            #expect(assignees == [world.ann.id, world.bob.id, world.cat.id, world.ann.id, world.bob.id, world.cat.id])
            #expect(world.notices.all.filter { $0.kind == "household.chore_completed" }.count == 6)
        }
    }

    @Test func aLateCompletionReschedulesFromTheCompletionDay() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann)
            let created = try await world.api.post(
                world.path(id, "/chores"), token: world.token(world.ann),
                json: ChoreBody(
                    name: "Water the plants", schedule: .init(kind: "everyDays", every: 3),
                    assignment: .init(kind: "fixed", assignee: world.ann.id)))
            let createdChore = try created.decode(WireChore.self)
            let chore = createdChore.id
            #expect(createdChore.nextDue == today(world))
            try await world.advance(days: 5)
            let list = try await world.api.get(world.path(id, "/chores"), token: world.token(world.ann))
            #expect(try list.decode(WireItems<WireChore>.self).items.first?.overdue == true)
            let done = try await world.api.post(
                world.path(id, "/chores/\(chore)/completions"), token: world.token(world.ann), json: [String: String]())
            let next = try done.decode(WireCompletionResult.self).chore.nextDue
            try await world.advance(days: 3)
            #expect(next == today(world), "three days after the late completion, not after the missed day")
        }
    }

    @Test func aOneOffChoreIsDoneOnce() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann)
            let created = try await world.api.post(
                world.path(id, "/chores"), token: world.token(world.ann),
                json: ChoreBody(
                    name: "Fix the shelf", points: 8, schedule: .init(kind: "once"),
                    assignment: .init(kind: "leastPoints")))
            let chore = try created.decode(WireChore.self).id
            #expect(
                try await world.api.post(
                    world.path(id, "/chores/\(chore)/completions"), token: world.token(world.ann),
                    json: [String: String]()
                ).status == 201)
            let again = try await world.api.post(
                world.path(id, "/chores/\(chore)/completions"), token: world.token(world.ann), json: [String: String]())
            #expect(again.status == 409)
            #expect(again.problem?.code == "chore_done")
            // the completed one-off chore leaves the pending list (the default) and is listed as done
            for (query, count) in [("", 0), ("?status=pending", 0), ("?status=done", 1), ("?status=all", 1)] {
                let list = try await world.api.get(world.path(id, "/chores" + query), token: world.token(world.ann))
                let ids = try list.decode(WireItems<WireChore>.self).items.map(\.id)
                #expect(ids == Array(repeating: chore, count: count), "\(query)")
            }
            // a custom chore is kept in the catalogue for reuse
            let catalogue = try await world.api.get(world.path(id, "/chore-catalogue"), token: world.token(world.ann))
            let custom = try catalogue.decode(WireItems<WireCatalogueEntry>.self).items.filter(\.custom)
            #expect(custom.map(\.name) == ["Fix the shelf"])
        }
    }

    @Test func editingAndDeletingAChoreKeepsItsHistory() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let created = try await world.api.post(
                world.path(id, "/chores"), token: world.token(world.ann),
                json: ChoreBody(
                    name: "Wash the dishes", schedule: .init(kind: "everyDays", every: 1),
                    assignment: .init(kind: "rotating")))
            let chore = try created.decode(WireChore.self).id
            _ = try await world.api.post(
                world.path(id, "/chores/\(chore)/completions"), token: world.token(world.bob), json: [String: String]())
            let edited = try await world.api.patch(
                world.path(id, "/chores/\(chore)"), token: world.token(world.bob),
                json: ChoreBody(
                    name: "Dishes", points: 4, schedule: .init(kind: "monthly", dayOfMonth: 1),
                    assignment: .init(kind: "fixed", assignee: world.bob.id)))
            #expect(edited.status == 200)
            let editedChore = try edited.decode(WireChore.self)
            #expect(editedChore.name == "Dishes")
            #expect(editedChore.schedule.kind == "monthly")
            #expect(editedChore.assigneeId == world.bob.id)
            #expect(
                try await world.api.delete(world.path(id, "/chores/\(chore)"), token: world.token(world.ann)).status
                    == 204)
            #expect(
                try await world.api.delete(world.path(id, "/chores/\(chore)"), token: world.token(world.ann)).status
                    == 404)
            let history = try await world.api.get(world.path(id, "/completions"), token: world.token(world.ann))
            #expect(try history.decode(WirePage<WireCompletion>.self).items.count == 1)
        }
    }

    @Test func completionsOfOneDayComeNewestFirstOnEveryPage() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            var done: [String] = []
            // given: many one-off chores done on one day, a minute apart (ids are random, so they cannot order them)
            for (index, user) in [world.ann, world.bob, world.ann, world.bob, world.ann, world.bob].enumerated() {
                let chore = try await world.api.post(
                    world.path(id, "/chores"), token: world.token(world.ann), json: ["name": "Chore \(index)"])
                let choreID = try chore.decode(WireChore.self).id
                let completed = try await world.api.post(
                    world.path(id, "/chores/\(choreID)/completions"), token: world.token(user),
                    json: [String: String]())
                done.append(try completed.decode(WireCompletionResult.self).completion.id)
                try await world.advance(days: 1.0 / 1_440)
            }
            // when: read two at a time
            var pages: [String] = []
            var cursor: String?
            repeat {
                let page = try await world.api.get(
                    world.path(id, "/completions?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")),
                    token: world.token(world.ann)
                ).decode(WirePage<WireCompletion>.self)
                pages += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            // then: newest first, each once, in the same order as one page
            #expect(pages == done.reversed())
            let whole = try await world.api.get(world.path(id, "/completions"), token: world.token(world.ann))
            #expect(try whole.decode(WirePage<WireCompletion>.self).items.map(\.id) == pages)
        }
    }

    @Test func historyFiltersAndStatisticsCountPointsPerMember() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.api.patch(
                IdentityPaths.me, token: world.token(world.bob), json: ["displayName": "Bob <b>"])
            var chores: [String: String] = [:]
            for (name, points) in [("Clean the bathroom", 6), ("Wash the dishes", 3)] {
                let created = try await world.api.post(
                    world.path(id, "/chores"), token: world.token(world.ann),
                    json: ChoreBody(
                        name: name, points: points, schedule: .init(kind: "everyDays", every: 1),
                        assignment: .init(kind: "rotating")))
                chores[name] = try created.decode(WireChore.self).id
            }
            for (user, chore) in [
                (world.ann, "Clean the bathroom"), (world.bob, "Wash the dishes"), (world.bob, "Wash the dishes"),
                (world.ann, "Wash the dishes"),
            ] {
                _ = try await world.api.post(
                    world.path(id, "/chores/\(chores[chore]!)/completions"), token: world.token(user),
                    json: [String: String]())
                try await world.advance(days: 1)
            }
            let bobs = try await world.api.get(
                world.path(id, "/completions?member=\(world.bob.id)"), token: world.token(world.ann))
            #expect(try bobs.decode(WirePage<WireCompletion>.self).items.count == 2)
            let dishes = try await world.api.get(
                world.path(id, "/completions?chore=\(chores["Wash the dishes"]!)&limit=2"),
                token: world.token(world.ann))
            let dishesPage = try dishes.decode(WirePage<WireCompletion>.self)
            #expect(dishesPage.items.count == 2)
            let cursor = try #require(dishesPage.nextCursor)
            let rest = try await world.api.get(
                world.path(id, "/completions?chore=\(chores["Wash the dishes"]!)&limit=2&cursor=\(cursor)"),
                token: world.token(world.ann))
            #expect(try rest.decode(WirePage<WireCompletion>.self).items.count == 1)
            #expect(
                try await world.api.get(world.path(id, "/completions?cursor=bogus"), token: world.token(world.ann))
                    .status == 400)

            let stats = try await world.api.get(world.path(id, "/statistics"), token: world.token(world.bob))
            let statistics = try stats.decode(WireChoreStatistics.self)
            #expect(statistics.members.map(\.points) == [9, 6])
            #expect(statistics.members.map(\.count) == [2, 2])
            #expect(statistics.mine.points == 6)
            let chart = try await world.api.get(world.path(id, "/statistics/chart.svg"), token: world.token(world.ann))
            #expect(chart.headers.first(name: "content-type") == "image/svg+xml")
            #expect(chart.text.hasPrefix("<svg"))
            #expect(chart.text.contains("Bob &lt;b&gt;") && !chart.text.contains("Bob <b>"))
            let inverted = try await world.api.get(
                world.path(id, "/statistics?from=2026-02-01&to=2026-01-01"), token: world.token(world.ann))
            #expect(inverted.status == 400)
            let tooLong = try await world.api.get(
                world.path(id, "/statistics?from=2020-01-01&to=2026-01-01"), token: world.token(world.ann))
            #expect(tooLong.status == 400)
        }
    }
}
