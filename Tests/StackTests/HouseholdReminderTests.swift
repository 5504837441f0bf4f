import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Reminders, month-end reminders and payment links through the gateway (RooMate part 2).
@Suite struct HouseholdReminderTests {
    /// ann pays `amount` of `currency` split equally among ann, bob and cat.
    func annPays(_ world: HouseholdWorld, _ id: String, _ amount: Int, currency: String = "EUR") async throws {
        let bill = try await world.api.post(
            world.path(id, "/bills"), token: world.token(world.ann),
            raw: #"{"description":"Rent","amount":\#(amount),"currency":"\#(currency)","split":{"kind":"equal"}}"#)
        #expect(bill.status == 201)
    }

    func reminded(_ response: APIResponse) throws -> [String] {
        try response.decode(WireReminded.self).reminded.map(\.userId)
    }

    @Test func aMemberWhoOwesMeCanBeRemindedOnceADay() async throws {
        try await HouseholdWorld.run { world in
            // given bob and cat owe ann 30.00 each
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await annPays(world, id, 9_000)
            // when / then
            let wrongWay = try await world.api.post(
                world.path(id, "/reminders"), token: world.bob.accessToken, json: ["to": world.ann.id])
            #expect(wrongWay.problem?.code == "nothing_owed")
            let first = try await world.api.post(
                world.path(id, "/reminders"), token: world.ann.accessToken, json: ["to": world.bob.id])
            #expect(first.status == 200)
            #expect(try reminded(first) == [world.bob.id])
            let notice = try #require(world.notices.all.last)
            #expect(notice.kind == "household.payment_reminder")
            #expect(notice.recipients == [world.bob.id])
            #expect(notice.text.contains("30.00 EUR"))
            let again = try await world.api.post(
                world.path(id, "/reminders"), token: world.ann.accessToken, json: ["to": world.bob.id])
            #expect(again.status == 429)
            #expect(again.problem?.code == "reminder_too_soon")
            #expect(again.headers.first(name: "retry-after") == "86400")
            // remind all: cat is reminded, bob skipped
            let all = try await world.api.post(world.path(id, "/reminders/all"), token: world.ann.accessToken)
            #expect(try reminded(all) == [world.cat.id])
            #expect(try all.decode(WireReminded.self).skipped.first?.userId == world.bob.id)
            #expect(
                try await world.api.post(world.path(id, "/reminders/all"), token: world.ann.accessToken).status == 429)
            #expect(world.notices.kinds.filter { $0 == "household.payment_reminder" }.count == 2)
            // 23 hours later still too soon; 24 hours later allowed again
            try await world.advance(days: 82_800.0 / 86_400)
            let early = try await world.api.post(
                world.path(id, "/reminders"), token: world.token(world.ann), json: ["to": world.bob.id])
            #expect(early.status == 429)
            #expect(early.headers.first(name: "retry-after") == "3600")
            try await world.advance(days: (3_600.0 + 60) / 86_400)
            let later = try await world.api.post(
                world.path(id, "/reminders/all"), token: world.token(world.ann))
            #expect(Set(try reminded(later)) == [world.bob.id, world.cat.id])
            // a member who paid up cannot be reminded
            _ = try await world.api.post(
                world.path(id, "/payments"), token: world.token(world.cat),
                json: PaymentBody(to: world.ann.id, amount: 3_000, currency: "EUR"))
            try await world.advance(days: 1)
            let paid = try await world.api.post(
                world.path(id, "/reminders"), token: world.token(world.ann), json: ["to": world.cat.id])
            #expect(paid.problem?.code == "nothing_owed")
            let stranger = try await world.api.post(
                world.path(id, "/reminders"), token: world.token(world.ann), json: ["to": "nobody"])
            #expect(stranger.status == 404)
        }
    }

    @Test func everyoneWhoOwesMoneyIsRemindedOnceAtTheEndOfTheMonth() async throws {
        try await HouseholdWorld.run { world in
            // given
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await annPays(world, id, 1_000)
            let notices = world.notices.all.count
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let now = world.stack.clock.now
            let month = calendar.dateInterval(of: .month, for: now)!
            let lastDayNoon = month.end.addingTimeInterval(-12 * 3_600)
            // when: a day that is not the month's last reminds nobody
            let midMonth = month.start.addingTimeInterval(14 * 86_400)
            #expect(try await world.jobs.sendMonthEndReminders(now: midMonth) == 0)
            // the clock moves on to the month's last day
            if lastDayNoon > now { try await world.advance(days: lastDayNoon.timeIntervalSince(now) / 86_400) }
            let count = try await world.jobs.sendMonthEndReminders(now: world.stack.clock.now)
            // then
            #expect(count == 2)
            let sent = world.notices.all.dropFirst(notices).filter { $0.kind == "household.month_end_reminder" }
            #expect(Set(sent.flatMap(\.recipients)) == [world.bob.id, world.cat.id])
            #expect(sent.allSatisfy { $0.text.contains("3.33 EUR") || $0.text.contains("3.34 EUR") })
            #expect(try await world.jobs.sendMonthEndReminders(now: world.stack.clock.now) == 0, "once a month")
            // next month's end reminds them again while they still owe
            let nextEnd = calendar.dateInterval(of: .month, for: month.end)!.end.addingTimeInterval(-3_600)
            #expect(try await world.jobs.sendMonthEndReminders(now: nextEnd) == 2)
        }
    }

    @Test func aPaymentLinkOpensVenmoOrPayPalForWhatIOwe() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                raw: #"{"description":"Pizza","amount":3000,"currency":"USD","split":{"kind":"equal"}}"#)
            let link = world.path(id, "/payment-link?to=\(world.ann.id)&provider=venmo&currency=USD")
            #expect(try await world.api.get(link, token: world.bob.accessToken).problem?.code == "no_payment_handle")
            let bad = try await world.api.send(
                .PUT, world.path(id, "/payment-handles"), token: world.ann.accessToken, json: ["venmo": "a b"])
            #expect(bad.status == 400)
            let set = try await world.api.send(
                .PUT, world.path(id, "/payment-handles"), token: world.ann.accessToken,
                json: ["venmo": "@ann-venmo", "paypal": "annpp"])
            #expect(set.status == 200)
            let handles = try await world.api.get(world.path(id, "/payment-handles"), token: world.bob.accessToken)
            #expect(try handles.decode(WireItems<WirePaymentHandles>.self).items.first?.venmo == "ann-venmo")
            let venmo = try await world.api.get(link, token: world.bob.accessToken)
            #expect(venmo.status == 200)
            let venmoLink = try venmo.decode(WirePaymentLink.self)
            #expect(
                venmoLink.url == "venmo://paycharge?txn=pay&recipients=ann-venmo&amount=15.00&note=RooMate%20settle-up")
            #expect(venmoLink.amount == 1_500)
            let paypal = try await world.api.get(
                world.path(id, "/payment-link?to=\(world.ann.id)&provider=paypal&currency=USD"),
                token: world.bob.accessToken)
            #expect(try paypal.decode(WirePaymentLink.self).url == "https://www.paypal.me/annpp/15.00USD")
            let chosen = try await world.api.get(
                world.path(id, "/payment-link?to=\(world.ann.id)&provider=paypal&currency=EUR&amount=1234"),
                token: world.bob.accessToken)
            #expect(try chosen.decode(WirePaymentLink.self).url == "https://www.paypal.me/annpp/12.34EUR")
            let euros = try await world.api.get(
                world.path(id, "/payment-link?to=\(world.ann.id)&provider=venmo&currency=EUR&amount=100"),
                token: world.bob.accessToken)
            #expect(euros.status == 400)
            let nothing = try await world.api.get(
                world.path(id, "/payment-link?to=\(world.bob.id)&provider=paypal&currency=USD"),
                token: world.ann.accessToken)
            #expect(nothing.status == 409)
            for query in [
                "", "?to=\(world.ann.id)", "?to=\(world.ann.id)&provider=zelle&currency=USD",
                "?to=\(world.ann.id)&provider=paypal&currency=USD&amount=-5",
            ] {
                #expect(
                    try await world.api.get(world.path(id, "/payment-link\(query)"), token: world.bob.accessToken)
                        .status == 400)
            }
        }
    }

    @Test func aMemberOfAnotherHouseholdTriesEveryRoute() async throws {
        try await HouseholdWorld.run { world in
            // given ann and bob's household with an item, a trip and a debt
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.household(world.cat)
            let item = try await world.api.post(
                world.path(id, "/groceries"), token: world.bob.accessToken, json: ["name": "Milk"])
            let itemID = try item.decode(WireGroceryItem.self).id
            _ = try await world.api.post(
                world.path(id, "/groceries"), token: world.bob.accessToken, json: ["name": "Bread"])
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                raw: #"{"total":500,"currency":"EUR","items":[{"name":"bread"}]}"#)
            let tripID = try trip.decode(WireTrip.self).id
            let json = [("Content-Type", "application/json")]
            let routes: [(HTTPMethod, String, Data?)] = [
                (.GET, "/groceries", nil), (.GET, "/groceries/personal", nil), (.GET, "/groceries/communal", nil),
                (.POST, "/groceries", Data(#"{"name":"Cake"}"#.utf8)),
                (.PATCH, "/groceries/\(itemID)", Data(#"{"quantity":9}"#.utf8)), (.DELETE, "/groceries/\(itemID)", nil),
                (.POST, "/shopping", nil),
                (.POST, "/trips", Data(#"{"total":100,"currency":"EUR","items":[{"name":"milk"}]}"#.utf8)),
                (.GET, "/trips", nil), (.GET, "/trips/\(tripID)", nil),
                (.PUT, "/trips/\(tripID)", Data(#"{"total":100,"items":[{"name":"x","communalQuantity":1}]}"#.utf8)),
                (.PUT, "/trips/\(tripID)/receipt", HouseholdBoardTests.png), (.GET, "/trips/\(tripID)/receipt", nil),
                (.POST, "/reminders", Data(#"{"to":"\#(world.bob.id)"}"#.utf8)), (.POST, "/reminders/all", nil),
                (.GET, "/payment-handles", nil), (.PUT, "/payment-handles", Data(#"{"paypal":"catpp"}"#.utf8)),
                (.GET, "/payment-link?to=\(world.ann.id)&provider=paypal&currency=EUR&amount=100", nil),
            ]
            // when / then
            for (method, rest, body) in routes {
                let response = try await world.api.send(
                    method, world.path(id, rest), token: world.cat.accessToken, body: body,
                    headers: body == nil || rest.hasSuffix("receipt") ? [] : json)
                #expect(response.status == 404, "\(method) \(rest): \(response.status)")
            }
            let list = try await world.api.get(world.path(id, "/groceries"), token: world.ann.accessToken)
            #expect(try list.decode(WireItems<WireGroceryLine>.self).items.first?.quantity == 1)
            let stored = try await world.api.get(world.path(id, "/trips/\(tripID)"), token: world.bob.accessToken)
            let storedTrip = try stored.decode(WireTrip.self)
            #expect(storedTrip.total == 500)
            #expect(storedTrip.hasReceipt == false)
            #expect(world.notices.kinds.filter { $0 == "household.shopping_started" }.isEmpty)
        }
    }
}
