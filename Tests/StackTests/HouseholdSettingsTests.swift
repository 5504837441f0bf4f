import Foundation
import PlatformKit
import TestSupport
import Testing

/// Each member's own settings are kept with their account, and the month-end job reminds each debtor at the time
/// they chose, in the household's zone.
@Suite struct HouseholdSettingsTests {
    struct Settings: Codable, Sendable, Equatable {
        var reminderDaysBefore: Int?
        var reminderHour: Int?
        var boardBackground: String?
    }

    @Test func settingsAreMineKeptAndChecked() async throws {
        try await HouseholdWorld.run { world in
            let path = HouseholdPaths.households + "/settings"
            let defaults = try await world.api.get(path, token: world.ann.accessToken)
            #expect(try defaults.decode(Settings.self) == Settings(reminderDaysBefore: 0, reminderHour: 0))
            let changed = try await world.api.patch(
                path, token: world.ann.accessToken,
                json: Settings(reminderDaysBefore: 2, reminderHour: 18, boardBackground: "cork"))
            #expect(
                try changed.decode(Settings.self)
                    == Settings(reminderDaysBefore: 2, reminderHour: 18, boardBackground: "cork"))
            // a later change touches only what it names; an empty background goes back to the default
            let colour = try await world.api.patch(
                path, token: world.ann.accessToken, json: ["boardBackground": "#1a2B3c"])
            #expect(try colour.decode(Settings.self).reminderHour == 18)
            _ = try await world.api.patch(path, token: world.ann.accessToken, json: ["boardBackground": ""])
            #expect(
                try await world.api.get(path, token: world.ann.accessToken).decode(Settings.self).boardBackground == nil
            )
            // each value is checked, naming the field; nothing is stored from a refused change
            for (body, field) in [
                (Settings(reminderDaysBefore: 8), "reminderDaysBefore"), (Settings(reminderHour: 24), "reminderHour"),
                (Settings(reminderHour: -1), "reminderHour"), (Settings(boardBackground: "#12345G"), "boardBackground"),
                (Settings(reminderDaysBefore: 1, boardBackground: "wallpaper"), "boardBackground"),
            ] {
                let refused = try await world.api.patch(path, token: world.ann.accessToken, json: body)
                #expect(refused.status == 400 && refused.problem?.errors?.map(\.field) == [field], "\(body)")
            }
            #expect(
                try await world.api.get(path, token: world.ann.accessToken).decode(Settings.self)
                    == Settings(reminderDaysBefore: 2, reminderHour: 18))
            // they are ann's alone, kept without a household, and stay when she joins one
            #expect(try await world.api.get(path, token: world.bob.accessToken).decode(Settings.self).reminderHour == 0)
            _ = try await world.household(world.ann, with: [world.bob])
            #expect(
                try await world.api.get(path, token: world.ann.accessToken).decode(Settings.self).reminderHour == 18)
            #expect(try await world.api.get(path).status == 401)
        }
    }

    @Test func eachDebtorIsRemindedAtTheTimeTheyChoseInTheHouseholdsZone() async throws {
        try await HouseholdWorld.run { world in
            // given: bob and cat owe ann in a Tokyo household; bob wants his reminder two days early, from 18:00
            let id = try await world.household(world.ann, with: [world.bob, world.cat], timeZone: "Asia/Tokyo")
            let bill = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                raw: #"{"description":"Rent","amount":900,"currency":"EUR","split":{"kind":"equal"}}"#)
            #expect(bill.status == 201)
            let settings = HouseholdPaths.households + "/settings"
            _ = try await world.api.patch(
                settings, token: world.bob.accessToken, json: Settings(reminderDaysBefore: 2, reminderHour: 18))
            var tokyo = Calendar(identifier: .gregorian)
            tokyo.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
            let nextMonth = try #require(tokyo.date(byAdding: .month, value: 1, to: world.stack.clock.now))
            let month = try #require(tokyo.dateInterval(of: .month, for: nextMonth))
            let lastDay = month.end.addingTimeInterval(-86_400)  // local midnight starting the last day
            let run = { (at: Date) in try await world.jobs.sendMonthEndReminders(now: at) }
            let remindedSoFar = {
                world.notices.all.filter { $0.kind == "household.month_end_reminder" }.flatMap(\.recipients)
            }
            // then: nobody before bob's hour, two days before the end (Tokyo time)
            #expect(try await run(lastDay.addingTimeInterval(-2 * 86_400 + 17 * 3_600)) == 0)
            // bob from 18:00 that day, once
            #expect(try await run(lastDay.addingTimeInterval(-2 * 86_400 + 18 * 3_600)) == 1)
            #expect(remindedSoFar() == [world.bob.id])
            #expect(try await run(lastDay.addingTimeInterval(-2 * 86_400 + 20 * 3_600)) == 0)
            // cat, with the defaults, on the last local day from midnight, which is still the day before in UTC
            #expect(try await run(lastDay.addingTimeInterval(-60)) == 0)
            #expect(try await run(lastDay.addingTimeInterval(30 * 60)) == 1)
            #expect(remindedSoFar() == [world.bob.id, world.cat.id])
            #expect(try await run(lastDay.addingTimeInterval(23 * 3_600)) == 0)
            // next month, bob again at his time
            let following = try #require(tokyo.dateInterval(of: .month, for: month.end.addingTimeInterval(86_400)))
            #expect(try await run(following.end.addingTimeInterval(-3 * 86_400 + 18 * 3_600)) == 1)
        }
    }
}
