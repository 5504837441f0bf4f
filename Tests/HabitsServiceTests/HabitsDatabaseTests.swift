import Foundation
import GRDB
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

@Suite struct HabitsDatabaseTests {
    /// 2027-01-15, after every day the events below are for.
    let clock = WallClock { Date(timeIntervalSince1970: 1_800_000_000) }

    func habit(_ id: String, owner: String = "u1") -> HabitRecord {
        HabitRecord(
            id: id, userId: owner, title: "T", reason: "", weekdays: 0x7F, startDate: "2027-01-01",
            createdAt: Date(), updatedAt: Date())
    }

    func event(_ habit: String, _ day: String, latitude: Double? = nil, owner: String = "u1") -> NewEvent {
        NewEvent(
            habitID: habit, userID: owner, day: LocalDay(day), comment: nil, latitude: latitude, longitude: latitude,
            photo: .keep, idempotencyKey: nil)
    }

    func locations(_ database: HabitsDatabase) async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event_locations") ?? 0 }
    }

    @Test func theLocationIndexFollowsEventsThroughEditsAndDeletes() async throws {
        let database = try HabitsDatabase(.inMemory)
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

    /// Habits, read column by column on today's list, decode as their `Codable` conformance would.
    @Test func habitsDecodeByColumnAsByCodable() async throws {
        let database = try HabitsDatabase(.inMemory)
        let created = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await database.createHabit(
            HabitRecord(
                id: "h1", userId: "u1", title: "Read 📚", reason: "Because", weekdays: 0b0010101,
                startDate: "2027-01-03", createdAt: created, updatedAt: created.addingTimeInterval(90)))
        try await database.createHabit(habit("h2"))
        let decoded = try await database.read { db in
            try expectDecodedAsCodableWould(HabitRecord.self, db, "SELECT * FROM habits")
        }
        #expect(decoded == 2)
        let listed = try await database.habitsWithStatus(of: ["u1"], todays: ["u1": LocalDay("2027-01-15")!])
        #expect(listed.map(\.habit.id) == ["h1", "h2"])
        #expect(listed[0].habit.title == "Read 📚" && listed[0].habit.weekdays == 0b0010101)
        #expect(listed[0].habit.updatedAt == created.addingTimeInterval(90) && listed[0].habit.reason == "Because")
    }

    /// Today's list, read from the habits' own rows, is what the separate statement it replaced chose: the due habits
    /// (that weekday, started) in order, each with today's event, over random schedules, starts, events and days.
    @Test func todayListIsTheDueHabitsWithTodaysEvent() async throws {
        var random = SplitMix64(seed: 22)
        let database = try HabitsDatabase(.inMemory)
        let first = LocalDay("2027-01-01")!
        for number in 0..<40 {
            let owner = number % 4 == 3 ? "u2" : "u1"
            let created = Date(timeIntervalSince1970: 1_790_000_000 + Double(random.next() % 50))
            try await database.createHabit(
                HabitRecord(
                    id: "h\(number)", userId: owner, title: "T", reason: "",
                    weekdays: Int.random(in: 1...0x7F, using: &random),
                    startDate: first.adding(days: Int.random(in: 0..<60, using: &random)).description,
                    createdAt: created, updatedAt: created))
            // Events on random days, some before the status window, some after today.
            for day in Set(
                (0..<Int.random(in: 0..<12, using: &random)).map { _ in Int.random(in: 0..<90, using: &random) })
            {
                try await database.write { db in
                    try db.execute(
                        sql:
                            "INSERT INTO events (habit_id, user_id, day, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                        arguments: ["h\(number)", owner, first.adding(days: day).description, created, created])
                }
            }
        }
        var doneToday = 0
        var notDoneToday = 0
        for offset in 0..<80 {
            let today = first.adding(days: offset)
            let clock = WallClock { Date(timeIntervalSince1970: Double(today.number) * 86_400 + 43_200) }
            let listed = try await database.todayList(of: "u1", clock: clock)
            let expected = try await database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT h.id, (SELECT e.id FROM events e WHERE e.habit_id = h.id AND e.day = ?) FROM habits h
                        WHERE h.user_id = ? AND (h.weekdays & ?) != 0 AND h.start_date <= ?
                        ORDER BY h.created_at, h.rowid
                        """,
                    arguments: [today.description, "u1", 1 << (today.isoWeekday - 1), today.description]
                ).map { "\($0[0] as String) \(($0[1] as Int64?).map(String.init) ?? "-")" }
            }
            #expect(listed.map { "\($0.habit.id) \($0.todayEventID.map(String.init) ?? "-")" } == expected, "\(today)")
            let statuses = try await database.habitsWithStatus(of: ["u1"], todays: ["u1": today])
            for entry in listed {
                #expect(statuses.first { $0.habit.id == entry.habit.id }?.status == entry.status)
            }
            doneToday += listed.filter { $0.todayEventID != nil }.count
            notDoneToday += listed.filter { $0.todayEventID == nil }.count
        }
        // Both kinds of entry were compared, many times.
        #expect(doneToday > 20 && notDoneToday > 20)
    }

    /// Several people's history (the all tab, and the friends tab's latest event of each habit), with and without a
    /// comment search, paged with sizes on both sides of the padded lists' lengths (8, 16, 32, 64): every page follows
    /// the plain query over everyone's events.
    @Test func severalPeoplesPagesFollowThePlainQuery() async throws {
        var random = SplitMix64(seed: 8)
        let database = try HabitsDatabase(.inMemory)
        let users = (1...12).map { "u\($0)" }
        let comments = [nil, "rainy", "Rain 50%", "sunny", "brain_work"]
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        for (number, owner) in (users + users).enumerated() {
            try await database.createHabit(
                HabitRecord(
                    id: "h\(number)", userId: owner, title: "T\(number)", reason: "", weekdays: 0x7F,
                    startDate: "2027-01-01", createdAt: created, updatedAt: created))
            // Days shared between people, so that pages are cut between events of one day (ordered by id); sorted, as
            // a set's order changes from one process to the next and the comments drawn below would change with it.
            for day in Set(
                (0..<Int.random(in: 0..<40, using: &random)).map { _ in Int.random(in: 0..<30, using: &random) }
            ).sorted() {
                let comment = comments[Int(random.next() % UInt64(comments.count))]
                try await database.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO events (habit_id, user_id, day, comment, created_at, updated_at)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            "h\(number)", owner, LocalDay("2027-01-01")!.adding(days: day).description,
                            comment, created, created,
                        ])
                }
            }
        }
        // Eleven people (the users' list padded to 16), one without habits.
        let people = users.filter { $0 != "u3" } + ["nobody"]
        var latestMatched = 0
        for comment in [nil, "RAIN", "50%", "_"] as [String?] {
            let expected = try await database.read { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM events WHERE user_id != 'u3'
                        AND (?1 IS NULL OR instr(lower(comment), lower(?1)) > 0) ORDER BY day DESC, id DESC
                        """, arguments: [comment])
            }
            // The friends tab: the latest event of each habit, shown if it matches.
            let expectedLatest = try await database.read { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM (
                            SELECT id, day, user_id, comment,
                                row_number() OVER (PARTITION BY habit_id ORDER BY day DESC, id DESC) AS recency
                            FROM events)
                        WHERE recency = 1 AND user_id != 'u3'
                        AND (?1 IS NULL OR instr(lower(comment), lower(?1)) > 0) ORDER BY day DESC, id DESC
                        """, arguments: [comment])
            }
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

    @Test func oneEventPerHabitPerDayAndOwnersOnly() async throws {
        let database = try HabitsDatabase(.inMemory)
        try await database.createHabit(habit("h1"))
        _ = try await database.createEvent(event("h1", "2027-01-01"), clock: clock)
        await #expect(throws: (any Error).self) {
            _ = try await database.createEvent(event("h1", "2027-01-01"), clock: clock)
        }
        await #expect(throws: (any Error).self) {
            _ = try await database.createEvent(event("h1", "2027-01-02", owner: "u2"), clock: clock)
        }
        await #expect(throws: (any Error).self) { try await database.deleteHabit("h1", owner: "u2") }
    }
}
