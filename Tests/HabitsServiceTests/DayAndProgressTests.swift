import Foundation
import PlatformKit
import Testing

@testable import HabitsService

@Suite struct DayTests {
    @Test func parsesPrintsAndKnowsItsWeekday() throws {
        let day = try #require(LocalDay("2027-01-16"))
        #expect(day.description == "2027-01-16")
        #expect(day.isoWeekday == 6)
        #expect(LocalDay("1970-01-01")?.number == 0)
        #expect(LocalDay("1969-12-31")?.isoWeekday == 3)
        #expect(LocalDay("2024-02-29") != nil)
        for bad in ["2023-02-29", "2027-13-01", "2027-1-01", "27-01-01", "", "2027-01-32", "abcd-ef-gh"] {
            #expect(LocalDay(bad) == nil, "\(bad)")
        }
        // round trip over a few centuries, leap years included
        for number in stride(from: -50_000, through: 50_000, by: 37) {
            #expect(LocalDay(LocalDay(number: number).description)?.number == number)
        }
        #expect(try #require(LocalDay("2027-01-20")).weekStart.description == "2027-01-18")
    }

    @Test func theDayOfAnInstantFollowsTheZoneIncludingDaylightSaving() throws {
        func day(_ instant: String, _ zone: String) throws -> String {
            let date = try #require(ISO8601DateFormatter().date(from: instant))
            return LocalDay(date, in: try #require(TimeZone(identifier: zone))).description
        }
        #expect(try day("2027-01-15T11:05:00Z", "Pacific/Auckland") == "2027-01-16")
        #expect(try day("2027-01-15T10:55:00Z", "Pacific/Auckland") == "2027-01-15")
        #expect(try day("2027-01-16T09:55:00Z", "Pacific/Honolulu") == "2027-01-15")
        #expect(try day("2027-01-16T10:05:00Z", "Pacific/Honolulu") == "2027-01-16")
        #expect(try day("2027-03-15T03:30:00Z", "America/New_York") == "2027-03-14")
        #expect(try day("2027-03-15T04:30:00Z", "America/New_York") == "2027-03-15")
        #expect(try day("2027-04-04T11:30:00Z", "Pacific/Auckland") == "2027-04-04")
        #expect(try day("1969-12-31T23:59:59Z", "UTC") == "1969-12-31")
    }
}

@Suite struct DaySetTests {
    @Test func membershipAcrossWordsAndDuplicates() {
        let numbers = [-70, -1, 0, 63, 64, 200, 200]
        let set = DaySet(numbers.map(LocalDay.init(number:)))
        #expect(set.count == 6)
        #expect(set.days.map(\.number) == [-70, -1, 0, 63, 64, 200])
        for n in -80...210 { #expect(set.contains(LocalDay(number: n)) == numbers.contains(n)) }
        #expect(!DaySet([LocalDay]()).contains(LocalDay(number: 0)))
    }
}

@Suite struct WeekdaysTests {
    @Test func namesRoundTripAndAtLeastOneDayIsNeeded() throws {
        let days = try Weekdays(names: ["MON", "fri", "sun"])
        #expect(days.names == ["mon", "fri", "sun"])
        #expect(days.contains(try #require(LocalDay("2027-01-15"))))  // a Friday
        #expect(!days.contains(try #require(LocalDay("2027-01-16"))))
        #expect(throws: (any Error).self) { try Weekdays(names: []) }
        #expect(throws: (any Error).self) { try Weekdays(names: ["monday"]) }
    }
}

@Suite struct HabitProgressTests {
    let start = LocalDay("2027-01-04")!  // a Monday

    func progress(_ weekdays: [String], today: String, done: [String]) throws -> HabitProgress {
        HabitProgress(
            weekdays: try Weekdays(names: weekdays), start: start, today: try #require(LocalDay(today)),
            done: DaySet(done.compactMap { LocalDay($0) }))
    }

    @Test func restDaysNeitherBreakStreaksNorMoveTheScore() throws {
        let weekdaysOnly = try progress(
            ["mon", "tue", "wed", "thu", "fri"], today: "2027-01-11",
            done: ["2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-01-11"])
        let summary = weekdaysOnly.summary(from: start, to: weekdaysOnly.today)
        #expect(summary.currentStreak == 6)
        #expect(summary.bestStreak == 6)
        #expect(summary.completionRate == 1)
        // the same six outcomes on a daily habit done every day score the same
        let daily = try progress(
            HabitBodyNames.everyDay, today: "2027-01-09",
            done: ["2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-01-09"])
        #expect(abs(daily.summary(from: start, to: daily.today).strength - summary.strength) < 1e-12)
    }

    @Test func strengthIsTheLoopAverageWithAThirteenDueDayHalfLife() throws {
        // 13 done due days from zero: 1 - 0.5 = 0.5
        let days = (0..<13).map { start.adding(days: $0).description }
        let p = try progress(HabitBodyNames.everyDay, today: days.last!, done: days)
        #expect(abs(p.summary(from: start, to: p.today).strength - 0.5) < 1e-12)
        // then 13 missed due days halve it again
        let later = try progress(HabitBodyNames.everyDay, today: start.adding(days: 26).description, done: days)
        let s = later.summary(from: start, to: later.today)
        #expect(abs(s.strength - 0.25) < 1e-12)
        #expect(s.currentStreak == 0)
        #expect(s.bestStreak == 13)
    }

    @Test func todayIsNotMissedUntilItEnds() throws {
        let p = try progress(HabitBodyNames.everyDay, today: "2027-01-06", done: ["2027-01-04", "2027-01-05"])
        let s = p.summary(from: start, to: p.today)
        #expect(s.dueDays == 2)
        #expect(s.currentStreak == 2)
    }

    @Test func status() throws {
        #expect(try progress(["mon"], today: "2027-01-04", done: []).status(hasEvents: false) == .noEventsYet)
        // 4 of 5 due days in the window: on track; 3 of 5: behind
        let four = try progress(
            HabitBodyNames.everyDay, today: "2027-01-09",
            done: ["2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07"])
        #expect(four.status(hasEvents: true) == .onTrack)
        let three = try progress(
            HabitBodyNames.everyDay, today: "2027-01-09", done: ["2027-01-04", "2027-01-05", "2027-01-06"])
        #expect(three.status(hasEvents: true) == .behind)
    }

    @Test func weeklyCompletions() throws {
        let p = try progress(
            HabitBodyNames.everyDay, today: "2027-01-13", done: ["2027-01-04", "2027-01-05", "2027-01-12"])
        let weeks = p.weeklyCompletions(weeks: 3)
        #expect(weeks.map(\.weekStart.description) == ["2026-12-28", "2027-01-04", "2027-01-11"])
        #expect(weeks.map(\.completions) == [0, 2, 1])
    }
}

enum HabitBodyNames {
    static let everyDay = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}

@Suite struct GeoTests {
    @Test func haversineAndBox() {
        // one degree of latitude
        #expect(abs(Geo.distance(0, 0, 1, 0) - 111_195) < 1)
        // Edmonton to Calgary is about 281 km
        #expect(abs(Geo.distance(53.5461, -113.4938, 51.0447, -114.0719) - 281_000) < 2_000)
        let box = Geo.box(latitude: 53.5, longitude: -113.5, radius: 5_000)
        #expect(box.minLat < 53.5 && box.maxLat > 53.5)
        // every point on the 5 km circle is inside the box
        for bearing in stride(from: 0.0, to: 360, by: 15) {
            let b = bearing * .pi / 180
            let dLat = 4_999 * cos(b) / Geo.earthRadius * 180 / .pi
            let dLon = 4_999 * sin(b) / Geo.earthRadius * 180 / .pi / cos(53.5 * .pi / 180)
            let (lat, lon) = (53.5 + dLat, -113.5 + dLon)
            #expect(lat >= box.minLat && lat <= box.maxLat && lon >= box.minLon && lon <= box.maxLon)
        }
        // near the antimeridian the box spans all longitudes
        #expect(Geo.box(latitude: 0, longitude: 179.99, radius: 5_000).minLon == -180)
    }
}
