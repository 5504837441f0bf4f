import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Removes `userID` from the household (leaving, or removed by its creator), hands their chores to
    /// the next member, and deletes a household nobody is left in. Returns the members who remain.
    func removeMember(
        _ userID: String, from householdID: String, by actorID: String, now: Date, notices: ChangeNotices<[String]>?
    ) async throws -> [String] {
        try await write(reporting: notices) { db in
            let (household, memberRecords) = try Self.household(db, householdID, asMember: actorID)
            let members = memberRecords.map(\.userId)
            guard members.contains(userID) else { throw HouseholdError.notFound("The member") }
            guard userID == actorID || household.createdBy == actorID else { throw HouseholdError.notHouseholdAdmin }
            try MemberRecord.filter(
                MemberRecord.Columns.householdId == householdID && MemberRecord.Columns.userId == userID
            ).deleteAll(db)
            // An invitation speaks for its inviter: it lapses when they leave (migration v5 did so for earlier ones).
            try InvitationRecord.filter(
                InvitationRecord.Columns.householdId == householdID && InvitationRecord.Columns.inviterId == userID
                    && InvitationRecord.Columns.status == "pending"
            ).updateAll(
                db, InvitationRecord.Columns.status.set(to: "withdrawn"),
                InvitationRecord.Columns.respondedAt.set(to: now))
            let remaining = members.filter { $0 != userID }
            guard !remaining.isEmpty else {
                _ = try household.delete(db)
                return []
            }
            for var chore in try ChoreRecord.filter(
                ChoreRecord.Columns.householdId == householdID && ChoreRecord.Columns.assigneeId == userID
            ).fetchAll(db) {
                chore.assigneeId = chore.assignment.next(members: remaining, current: userID, recentPoints: [:])
                try chore.update(db)
            }
            let subject = userID == actorID ? "left the household" : "was removed from the household"
            try Self.record(db, householdID, "member_left", userID, subject, now)
            return remaining
        }
    }

    // MARK: Activity

    /// Adds an event to the household's activity feed (inside the transaction that made the change).
    static func record(
        _ db: Database, _ householdID: String, _ kind: String, _ actorID: String, _ subject: String, _ now: Date
    ) throws {
        try ActivityRecord(
            id: nil, householdId: householdID, kind: kind, actorId: actorID, subject: subject, createdAt: now
        )
        .insert(db)
    }

    /// The household's latest events, newest first.
    func activity(of householdID: String, asMember userID: String, limit: Int = 30) async throws -> [ActivityRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try ActivityRecord.filter(ActivityRecord.Columns.householdId == householdID)
                .order(ActivityRecord.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }
}
