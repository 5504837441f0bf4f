import Foundation
import GRDB
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

/// The habits store on both engines: today's list, history pages and their cursors, "near me", comment search, and the
/// invariants concurrent writers must keep (on PostgreSQL, writers on two replicas).
@Suite struct HabitsStoreTests {
    /// 2027-01-15, after every day the events below are for.
    let clock = WallClock { Date(timeIntervalSince1970: 1_800_000_000) }

    func habit(_ id: String, owner: String = "u1") -> HabitRecord {
        HabitRecord(
            id: id, userId: owner, title: "T", reason: "", weekdays: 0x7F, startDate: "2027-01-01",
            createdAt: Date(), updatedAt: Date())
    }

    func event(
        _ habit: String, _ day: String, latitude: Double? = nil, longitude: Double? = nil, owner: String = "u1",
        key: String? = nil
    ) -> NewEvent {
        NewEvent(
            habitID: habit, userID: owner, day: LocalDay(day), comment: nil, latitude: latitude,
            longitude: longitude ?? latitude, photo: .keep, idempotencyKey: key)
    }

    func locations(_ database: SQLiteHabitsStore) async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event_locations") ?? 0 }
    }

    @Test func theLocationIndexFollowsEventsThroughEditsAndDeletes() async throws {
        let database = try SQLiteHabitsStore(.inMemory)
        try await database.createHabit(habit("h1"))
        let (first, _) = try await database.createEvent(event("h1", "2027-01-01", latitude: 10), clock: clock)
        _ = try await database.createEvent(event("h1", "2027-01-02"), clock: clock)
        #expect(try await locations(database) == 1)
        _ = try await database.updateEvent(first.id, owner: "u1", now: Date(), photo: .keep) {
            $0.latitude = nil
            $0.longitude = nil
        }
        #expect(try await locations(database) == 0)
        _ = try await database.updateEvent(first.id, owner: "u1", now: Date(), photo: .keep) {
            $0.latitude = 20
            $0.longitude = 20
        }
        #expect(try await locations(database) == 1)
        try await database.deleteHabit("h1", owner: "u1")
        #expect(try await locations(database) == 0)
        let events = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") }
        #expect(events == 0)
    }

    /// Habits, read column by column on today's list, decode as their `Codable` conformance would; and both engines
    /// give them back as stored.
    @Test(arguments: StoreKind.allCases)
    func habitsComeBackAsStored(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let database = stores[0]
            let created = Date(timeIntervalSince1970: 1_700_000_000.25)
            try await database.createHabit(
                HabitRecord(
                    id: "h1", userId: "u1", title: "Read 📚", reason: "Because", weekdays: 0b0010101,
                    startDate: "2027-01-03", createdAt: created, updatedAt: created.addingTimeInterval(90)))
            try await database.createHabit(habit("h2"))
            if let sqlite = database as? SQLiteHabitsStore {
                let decoded = try await sqlite.read { db in
                    try expectDecodedAsCodableWould(HabitRecord.self, db, "SELECT * FROM habits")
                }
                #expect(decoded == 2)
            }
            let listed = try await database.habitsWithStatus(of: ["u1"], todays: ["u1": LocalDay("2027-01-15")!])
            #expect(listed.map(\.habit.id) == ["h1", "h2"])
            #expect(listed[0].habit.title == "Read 📚" && listed[0].habit.weekdays == 0b0010101)
            #expect(listed[0].habit.updatedAt == created.addingTimeInterval(90) && listed[0].habit.reason == "Because")
        }
    }

    /// Today's list, read from the habits' own rows: the due habits (that weekday, started) in the order they were
    /// created (ties in the order stored), each with today's event, over random schedules, starts, events and days.
    @Test(arguments: StoreKind.allCases)
    func todayListIsTheDueHabitsWithTodaysEvent(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in try await todayList(stores[0]) }
    }

    func todayList(_ database: any HabitsStore) async throws {
        var random = SplitMix64(seed: 22)
        let first = LocalDay("2027-01-01")!
        var mine: [(habit: HabitRecord, order: Int)] = []
        for number in 0..<40 {
            let owner = number % 4 == 3 ? "u2" : "u1"
            let created = Date(timeIntervalSince1970: 1_790_000_000 + Double(random.next() % 50))
            let habit = HabitRecord(
                id: "h\(number)", userId: owner, title: "T", reason: "",
                weekdays: Int.random(in: 1...0x7F, using: &random),
                startDate: first.adding(days: Int.random(in: 0..<60, using: &random)).description,
                createdAt: created, updatedAt: created)
            try await database.createHabit(habit)
            if owner == "u1" { mine.append((habit, number)) }
            // Events on random days, some before the status window, some after today.
            for day in Set(
                (0..<Int.random(in: 0..<12, using: &random)).map { _ in Int.random(in: 0..<90, using: &random) })
            {
                _ = try await insertEvent(
                    database, habit: "h\(number)", owner: owner, day: first.adding(days: day).description,
                    at: created)
            }
        }
        var doneToday = 0
        var notDoneToday = 0
        for offset in 0..<80 {
            let today = first.adding(days: offset)
            let clock = WallClock { Date(timeIntervalSince1970: Double(today.number) * 86_400 + 43_200) }
            let listed = try await database.todayList(of: "u1", clock: clock)
            let expected = mine.filter { $0.habit.isDue(on: today) }.sorted {
                ($0.habit.createdAt, $0.order) < ($1.habit.createdAt, $1.order)
            }.map(\.habit.id)
            #expect(listed.map(\.habit.id) == expected, "\(today)")
            let statuses = try await database.habitsWithStatus(of: ["u1"], todays: ["u1": today])
            for entry in listed {
                #expect(statuses.first { $0.habit.id == entry.habit.id }?.status == entry.status)
                if let id = entry.todayEventID {
                    let event = try await database.event(id)
                    #expect(event.day == today.description && event.habitId == entry.habit.id)
                }
            }
            doneToday += listed.filter { $0.todayEventID != nil }.count
            notDoneToday += listed.filter { $0.todayEventID == nil }.count
        }
        // Both kinds of entry were compared, many times.
        #expect(doneToday > 20 && notDoneToday > 20)
    }

    /// Several people's history (the all tab, and the friends tab's latest event of each habit), with and without a
    /// comment search (ASCII case-insensitive, wildcards taken literally), paged with sizes on both sides of the padded
    /// lists' lengths (8, 16, 32, 64): every page follows the plain answer over everyone's events.
    @Test(arguments: StoreKind.allCases)
    func severalPeoplesPagesFollowThePlainAnswer(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in try await severalPeoplesPages(stores[0]) }
    }

    func severalPeoplesPages(_ database: any HabitsStore) async throws {
        var random = SplitMix64(seed: 8)
        let users = (1...12).map { "u\($0)" }
        let comments = [nil, "rainy", "Rain 50%", "sunny", "brain_work"]
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        var stored: [(id: Int64, habit: String, user: String, day: String, comment: String?)] = []
        for (number, owner) in (users + users).enumerated() {
            try await database.createHabit(
                HabitRecord(
                    id: "h\(number)", userId: owner, title: "T\(number)", reason: "", weekdays: 0x7F,
                    startDate: "2027-01-01", createdAt: created, updatedAt: created))
            // Days shared between people, so that pages are cut between events of one day (ordered by id).
            for day in Set(
                (0..<Int.random(in: 0..<40, using: &random)).map { _ in Int.random(in: 0..<30, using: &random) }
            ).sorted() {
                let comment = comments[Int(random.next() % UInt64(comments.count))]
                let date = LocalDay("2027-01-01")!.adding(days: day).description
                let id = try await insertEvent(
                    database, habit: "h\(number)", owner: owner, day: date, comment: comment, at: created)
                stored.append((id, "h\(number)", owner, date, comment))
            }
        }
        let newestFirst = stored.sorted { ($0.day, $0.id) > ($1.day, $1.id) }
        var latest: [String: Int64] = [:]
        for event in newestFirst where latest[event.habit] == nil { latest[event.habit] = event.id }
        // Eleven people (the users' list padded to 16), one without habits.
        let people = users.filter { $0 != "u3" } + ["nobody"]
        var latestMatched = 0
        for comment in [nil, "RAIN", "50%", "_"] as [String?] {
            let matching = newestFirst.filter { event in
                event.user != "u3"
                    && (comment.map { event.comment?.lowercased().contains($0.lowercased()) == true } ?? true)
            }
            let expected = matching.map(\.id)
            let expectedLatest = matching.filter { latest[$0.habit] == $0.id }.map(\.id)
            #expect(expected.count > (comment == nil ? 100 : 10), "\(comment ?? "-")")
            #expect(expectedLatest.count > (comment == nil ? 15 : 0), "\(comment ?? "-")")
            latestMatched += comment == nil ? 0 : expectedLatest.count
            for pageSize in [1, 7, 8, 9, 16, 17, 40, 64, 100] {
                for (latestPerHabit, expected) in [(false, expected), (true, expectedLatest)] {
                    var listed: [Int64] = []
                    var after: HistoryKey?
                    while true {
                        let filter = HistoryFilter(users: people, latestPerHabit: latestPerHabit, comment: comment)
                        let rows = try await database.history(filter, after: after, limit: pageSize + 1)
                        listed += rows.prefix(pageSize).map(\.id)
                        guard rows.count > pageSize, let last = rows.prefix(pageSize).last else { break }
                        after = HistoryKey(day: last.day, id: last.id)
                    }
                    #expect(
                        listed == expected,
                        "comment \(comment ?? "-"), pages of \(pageSize), latest per habit \(latestPerHabit)")
                }
            }
        }
        // The friends tab's searches compared more than a page's worth of matches.
        #expect(latestMatched > 8)
    }

    /// "Near me" is the same circle on both engines: within 5,000 m by `Geo.distance`, inclusive, whatever index
    /// prefilters it; events just inside and just outside it, in every direction.
    @Test(arguments: StoreKind.allCases)
    func nearMeIsTheExactCircle(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let database = stores[0]
            let centre = (latitude: 48.8566, longitude: 2.3522)
            let metresPerDegree = Geo.earthRadius * .pi / 180
            var expected: [Int64] = []
            var day = 0
            for (north, east) in [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (0.6, 0.8)] {
                for distance in [4_990.0, 4_999.99, 5_000.01, 5_010.0] {
                    try await database.createHabit(habit("h\(day)"))
                    let latitude = centre.latitude + north * distance / metresPerDegree
                    let longitude =
                        centre.longitude + east * distance / (metresPerDegree * cos(centre.latitude * .pi / 180))
                    let (created, _) = try await database.createEvent(
                        event("h\(day)", "2027-01-01", latitude: latitude, longitude: longitude), clock: clock)
                    if Geo.distance(latitude, longitude, centre.latitude, centre.longitude) <= Geo.nearRadius {
                        expected.append(created.id)
                    }
                    day += 1
                }
            }
            var filter = HistoryFilter(users: ["u1"])
            filter.near = centre
            let found = try await database.history(filter, after: nil, limit: 100).map(\.id)
            #expect(found == expected.sorted(by: >))
            // About half inside (a flat offset of 5,000.01 m can still be inside by the haversine): both sides met.
            #expect((8...12).contains(expected.count))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oneEventPerHabitPerDayAndOwnersOnly(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let database = stores[0]
            try await database.createHabit(habit("h1"))
            _ = try await database.createEvent(event("h1", "2027-01-01"), clock: clock)
            await #expect(throws: HabitsError.eventExists(day: "2027-01-01")) {
                _ = try await database.createEvent(event("h1", "2027-01-01"), clock: clock)
            }
            await #expect(throws: HabitsError.notFound("The habit")) {
                _ = try await database.createEvent(event("h1", "2027-01-02", owner: "u2"), clock: clock)
            }
            await #expect(throws: HabitsError.notFound("The habit")) {
                try await database.deleteHabit("h1", owner: "u2")
            }
        }
    }

    /// The same `Idempotency-Key` sent many times at once, through two replicas: one event, and every answer is it
    /// (one `created`); another key for the same day is a second event that day, refused, never a 5xx.
    @Test(arguments: StoreKind.allCases)
    func oneIdempotencyKeySentAtOnceMakesOneEvent(kind: StoreKind) async throws {
        try await withHabitsStores(kind, replicas: 2) { stores in
            try await stores[0].createHabit(habit("h1"))
            let answers = try await withThrowingTaskGroup(of: (Int64, Bool).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let (event, created) = try await stores[index % 2].createEvent(
                            event("h1", "2027-01-05", key: "same"), clock: clock)
                        return (event.id, created)
                    }
                }
                return try await group.reduce(into: [(Int64, Bool)]()) { $0.append($1) }
            }
            #expect(answers.count == 16 && answers.filter(\.1).count == 1)
            #expect(Set(answers.map(\.0)).count == 1)
            await #expect(throws: HabitsError.eventExists(day: "2027-01-05")) {
                _ = try await stores[1].createEvent(event("h1", "2027-01-05", key: "other"), clock: clock)
            }
            let history = try await stores[1].history(HistoryFilter(users: ["u1"]), after: nil, limit: 10)
            #expect(history.map(\.id) == [answers[0].0])
        }
    }
}
