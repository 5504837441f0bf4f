import Foundation
import GRDB
import TestSupport
import Testing

@testable import HouseholdService

/// The records the chore list reads column by column decode as their `Codable` conformance would.
@Suite struct RecordDecodingTests {
    @Test func choresMembersAndHouseholdsDecodeByColumnAsByCodable() async throws {
        let database = try SQLiteHouseholdStore(.inMemory)
        let now = Date(timeIntervalSince1970: 1_795_000_000.25)
        let household = HouseholdRecord(
            id: "h1", name: "Flat 3", timeZone: "Europe/Paris", createdBy: "ann", noteLifetimeDays: 14, createdAt: now)
        try await database.createHousehold(household)
        try await database.write { db in
            try MemberRecord(householdId: "h1", userId: "bob", joinedAt: now.addingTimeInterval(60)).insert(db)
            // Every optional column set, then every one empty.
            try ChoreRecord(
                id: "c1", householdId: "h1", name: "Bins", points: 3, scheduleKind: "weekly", scheduleEvery: 2,
                scheduleWeekdays: "1,4", scheduleDay: 12, assignmentKind: "rotating", assignmentFixed: "ann",
                assignmentOrder: "ann,bob", assigneeId: "bob", nextDue: "2026-11-30", createdAt: now
            ).insert(db)
            try ChoreRecord(
                id: "c2", householdId: "h1", name: "Dishes", points: 1, scheduleKind: "once", scheduleEvery: nil,
                scheduleWeekdays: nil, scheduleDay: nil, assignmentKind: "leastPoints", assignmentFixed: nil,
                assignmentOrder: nil, assigneeId: nil, nextDue: nil, createdAt: now
            ).insert(db)
        }
        let decoded = try await database.read { db in
            [
                try expectDecodedAsCodableWould(ChoreRecord.self, db, "SELECT * FROM chores"),
                try expectDecodedAsCodableWould(MemberRecord.self, db, "SELECT * FROM members"),
                try expectDecodedAsCodableWould(HouseholdRecord.self, db, "SELECT * FROM households"),
            ]
        }
        #expect(decoded == [2, 2, 1])
        // A row that does not fit throws (that request fails) instead of stopping the process.
        let broken = try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS household_id, 'ann' AS user_id, 0 AS joined_at")!
            return #expect(throws: RowDecodingError.self) { try MemberRecord(row: row) } != nil
        }
        #expect(broken)
        // And through the list's own read.
        let (read, members, chores, _) = try await database.chores(of: "h1", asMember: "bob")
        #expect(read.name == "Flat 3" && read.noteLifetimeDays == 14 && read.createdAt == now)
        #expect(members.map(\.userId) == ["ann", "bob"])
        #expect(chores.map(\.id) == ["c1", "c2"] && chores[0].schedule == .weekly([1, 4]))
        #expect(chores[0].assignmentOrder == "ann,bob" && chores[1].assigneeId == nil && chores[1].nextDue == nil)
    }

    /// Membership is read in one statement with the household's columns beside the member's, each record reading
    /// its own by name: a column name both tables had would be read from the household's.
    @Test func householdsAndMembersShareNoColumnName() async throws {
        let database = try SQLiteHouseholdStore(.inMemory)
        let (households, members) = try await database.read { db in
            (try db.columns(in: "households").map(\.name), try db.columns(in: "members").map(\.name))
        }
        #expect(households.contains("time_zone") && members.contains("joined_at"))
        #expect(Set(households).isDisjoint(with: members))
    }
}
