import Foundation
import HouseholdService
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// RooMate's everyday money and chores through the gateway (issue 48): bills in categories and the statistics by
/// category, the CSV export, a chore's due reminder sent once, a recurring bill made once by its job, and an
/// outsider refused each time.
@Suite struct RooMateEverydayTests {
    struct Bill: Encodable, Sendable {
        struct Split: Encodable, Sendable { var kind = "equal" }
        struct Schedule: Encodable, Sendable { var kind: String; var every: Int? = nil }
        var description: String
        var amount: Int
        var currency = "EUR"
        var split = Split()
        var category: String
        var schedule: Schedule? = nil
    }

    struct Listed: Decodable { var items: [Item] }
    struct Item: Decodable {
        var id: String
        var description: String
        var category: String
        var payerId: String?
    }

    struct Expenses: Decodable {
        struct Category: Decodable, Equatable {
            var category: String
            var total: Int
        }
        var categories: [Category]
    }

    struct Recurring: Decodable {
        var id: String
        var nextOn: String?
        var stopped: Bool
    }

    @Test func aWeekInTheFlatThroughTheGateway() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            // 09:30 UTC on the next day, so the chore below falls due within its reminder's hours.
            let now = world.stack.clock.now.timeIntervalSince1970
            try await world.advance(days: ((now / 86_400).rounded(.down) * 86_400 + 86_400 + 34_200 - now) / 86_400)
            let (ann, bob, cat) = (world.token(world.ann), world.token(world.bob), world.token(world.cat))

            // categorised bills, filtered and in the statistics
            for (token, bill) in [
                (ann, Bill(description: "Rent", amount: 80_000, category: "rent")),
                (bob, Bill(description: "Groceries", amount: 3_000, category: "groceries")),
            ] {
                #expect(try await world.api.post(world.path(id, "/bills"), token: token, json: bill).status == 201)
            }
            let rent = try await world.api.get(world.path(id, "/bills?category=rent"), token: bob)
            #expect(try rent.decode(Listed.self).items.map(\.description) == ["Rent"])
            let expenses = try await world.api.get(world.path(id, "/statistics/expenses"), token: bob)
            #expect(
                try expenses.decode(Expenses.self).categories == [
                    .init(category: "rent", total: 80_000), .init(category: "groceries", total: 3_000),
                ])
            let badCategory = try await world.api.post(
                world.path(id, "/bills"), token: ann, json: Bill(description: "x", amount: 1, category: "Rent"))
            #expect(badCategory.problem?.code == "invalid_category")

            // the CSV export, for members only
            let file = try await world.api.get(world.path(id, "/export.csv"), token: bob)
            #expect(file.status == 200)
            #expect(file.headers.first(name: "content-type")?.hasPrefix("text/csv") == true)
            #expect(file.text.contains(",bill,Rent,rent,800.00,EUR,"))
            #expect(try await world.api.get(world.path(id, "/export.csv"), token: cat).status == 404)

            // bob's chore falls due today: he is reminded once
            let chore = try await world.api.post(
                world.path(id, "/chores"), token: ann,
                json: ChoreBody(
                    name: "Take out the bins", schedule: .init(kind: "everyDays", every: 7),
                    assignment: .init(kind: "fixed", assignee: world.bob.id)))
            #expect(chore.status == 201, "\(chore.text)")
            #expect(try await world.jobs.sendChoreReminders(now: world.stack.clock.now) == 1)
            #expect(try await world.jobs.sendChoreReminders(now: world.stack.clock.now) == 0)
            let reminders = world.notices.all.filter { $0.kind == "household.chore_due" }
            #expect(reminders.map(\.recipients) == [[world.bob.id]])
            #expect(reminders.first?.text == "Due today: Take out the bins")

            // a recurring bill: made once by its job, its payer told; bob may not stop ann's, cat sees nothing
            let made = try await world.api.post(
                world.path(id, "/recurring-bills"), token: ann,
                json: Bill(
                    description: "Internet", amount: 3_999, category: "internet",
                    schedule: .init(kind: "everyDays", every: 30)))
            #expect(made.status == 201, "\(made.text)")
            let recurring = try made.decode(Recurring.self)
            #expect(try await world.jobs.makeRecurringBills(now: world.stack.clock.now) == 1)
            #expect(try await world.jobs.makeRecurringBills(now: world.stack.clock.now) == 0)
            let internet = try await world.api.get(world.path(id, "/bills?category=internet"), token: bob)
            #expect(try internet.decode(Listed.self).items.map(\.payerId) == [world.ann.id])
            let told = world.notices.all.filter { $0.kind == "household.recurring_bill" }
            #expect(told.map(\.recipients) == [[world.ann.id]])
            let path = world.path(id, "/recurring-bills/\(recurring.id)")
            let refused = try await world.api.delete(path, token: bob)
            #expect(refused.status == 403)
            #expect(refused.problem?.code == "not_recurring_bill_owner")
            #expect(try await world.api.get(path, token: cat).status == 404)
            #expect(try await world.api.get(world.path(id, "/recurring-bills"), token: cat).status == 404)
            let stopped = try await world.api.delete(path, token: ann)
            #expect(try stopped.decode(Recurring.self).stopped)
            try await world.advance(days: 30)
            #expect(try await world.jobs.makeRecurringBills(now: world.stack.clock.now) == 0)
        }
    }
}
