import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func members(of householdID: String, asMember userID: String) async throws -> [MemberRecord] {
        try await read { db in try await db.members(householdID, asMember: userID) }
    }

    func household(of userID: String) async throws -> (HouseholdRecord, [MemberRecord])? {
        try await read { db in
            guard
                let householdID = try await db.namedRow(
                    "SELECT household_id FROM members WHERE user_id = \(userID)")?.get("household_id", as: String.self)
            else { return nil }
            return try await db.household(householdID, asMember: userID)
        }
    }

    func household(id: String, asMember userID: String) async throws -> (HouseholdRecord, [MemberRecord]) {
        try await read { db in try await db.household(id, asMember: userID) }
    }

    func createHousehold(_ household: HouseholdRecord) async throws {
        try await write { db in
            try await db.requireHomeless(household.createdBy)
            do {
                try await db.execute(
                    """
                    INSERT INTO households (id, name, time_zone, created_by, note_lifetime_days, created_at)
                    VALUES (\(household.id), \(household.name), \(household.timeZone), \(household.createdBy),
                        \(household.noteLifetimeDays), \(household.createdAt.storedMilliseconds))
                    """)
                try await db.execute(
                    """
                    INSERT INTO members (household_id, user_id, joined_at)
                    VALUES (\(household.id), \(household.createdBy), \(household.createdAt.storedMilliseconds))
                    """)
            } catch let error as PSQLError where error.isUniqueViolation {
                // The same user creating another household on another replica at this moment.
                throw HouseholdError.alreadyInHousehold(.you)
            }
            try await db.record(
                household.id, "member_joined", household.createdBy, "created the household", household.createdAt)
        }
    }

    @discardableResult
    func invite(_ invitation: InvitationRecord, notices: ChangeNotices<HouseholdRecord>?) async throws
        -> HouseholdRecord
    {
        try await write(locking: invitation.householdId, reporting: notices) { db in
            let (household, _) = try await db.household(invitation.householdId, asMember: invitation.inviterId)
            guard invitation.inviteeId != invitation.inviterId else {
                throw HouseholdError.alreadyInHousehold(.youHere)
            }
            do {
                try await db.execute(
                    """
                    INSERT INTO invitations (id, household_id, inviter_id, invitee_id, status, created_at, responded_at)
                    VALUES (\(invitation.id), \(invitation.householdId), \(invitation.inviterId), \(invitation.inviteeId),
                        \(invitation.status), \(invitation.createdAt.storedMilliseconds),
                        \(invitation.respondedAt?.storedMilliseconds))
                    """)
            } catch let error as PSQLError where error.isUniqueViolation {
                // `invitations_one_pending`: one pending invitation per invitee and household.
                throw HouseholdError.alreadyInvited
            }
            return household
        }
    }

    func pendingInvitations(for userID: String) async throws -> [(InvitationRecord, HouseholdRecord)] {
        try await read { db in
            try await db.namedRows(
                """
                SELECT i.id AS invitation_id, i.household_id, i.inviter_id, i.invitee_id, i.status,
                    i.created_at AS invited_at, i.responded_at, \(unescaped: HouseholdRecord.columns)
                FROM invitations i JOIN households h ON h.id = i.household_id
                WHERE i.invitee_id = \(userID) AND i.status = 'pending'
                ORDER BY i.created_at DESC
                """
            ).map { row in
                (
                    InvitationRecord(
                        id: try row.get("invitation_id"), householdId: try row.get("household_id"),
                        inviterId: try row.get("inviter_id"), inviteeId: try row.get("invitee_id"),
                        status: try row.get("status"), createdAt: try row.date("invited_at"),
                        respondedAt: try row.optionalDate("responded_at")),
                    try HouseholdRecord(row)
                )
            }
        }
    }

    func respond(
        to invitationID: String, as userID: String, accept: Bool, now: Date, notices: ChangeNotices<Joined?>?
    ) async throws -> Joined? {
        try await database.write(reporting: notices) { db in
            guard
                let row = try await db.namedRow(
                    """
                    SELECT id, household_id, inviter_id, invitee_id, status, created_at, responded_at
                    FROM invitations WHERE id = \(invitationID) FOR UPDATE
                    """),
                case let invitation = try InvitationRecord(row), invitation.inviteeId == userID
            else { throw HouseholdError.notFound("The invitation") }
            guard invitation.status == "pending" else {
                throw HouseholdError.invitationNotPending(status: invitation.status)
            }
            try await db.execute(
                """
                UPDATE invitations SET status = \(accept ? "accepted" : "declined"),
                    responded_at = \(now.storedMilliseconds)
                WHERE id = \(invitationID)
                """)
            guard accept else { return nil }
            try await db.lockHousehold(invitation.householdId)
            try await db.requireHomeless(userID)
            do {
                try await db.execute(
                    """
                    INSERT INTO members (household_id, user_id, joined_at)
                    VALUES (\(invitation.householdId), \(userID), \(now.storedMilliseconds))
                    """)
            } catch let error as PSQLError where error.isUniqueViolation {
                throw HouseholdError.alreadyInHousehold(.you)
            }
            try await db.record(invitation.householdId, "member_joined", userID, "joined the household", now)
            return try await db.household(invitation.householdId, asMember: userID)
        }
    }

    func removeMember(
        _ userID: String, from householdID: String, by actorID: String, now: Date, notices: ChangeNotices<[String]>?
    ) async throws -> [String] {
        try await write(locking: householdID, reporting: notices) { db in
            let (household, memberRecords) = try await db.household(householdID, asMember: actorID)
            let members = memberRecords.map(\.userId)
            guard members.contains(userID) else { throw HouseholdError.notFound("The member") }
            guard userID == actorID || household.createdBy == actorID else { throw HouseholdError.notHouseholdAdmin }
            try await db.execute("DELETE FROM members WHERE household_id = \(householdID) AND user_id = \(userID)")
            // An invitation speaks for its inviter: it lapses when they leave.
            try await db.execute(
                """
                UPDATE invitations SET status = 'withdrawn', responded_at = \(now.storedMilliseconds)
                WHERE household_id = \(householdID) AND inviter_id = \(userID) AND status = 'pending'
                """)
            let remaining = members.filter { $0 != userID }
            guard !remaining.isEmpty else {
                try await db.execute("DELETE FROM households WHERE id = \(householdID)")
                return []
            }
            for row in try await db.namedRows(
                "SELECT * FROM chores WHERE household_id = \(householdID) AND assignee_id = \(userID) ORDER BY id")
            {
                var chore = try ChoreRecord(row)
                chore.assigneeId = chore.assignment.next(members: remaining, current: userID, recentPoints: [:])
                try await db.update(chore)
            }
            let subject = userID == actorID ? "left the household" : "was removed from the household"
            try await db.record(householdID, "member_left", userID, subject, now)
            return remaining
        }
    }

    func activity(of householdID: String, asMember userID: String, limit: Int) async throws -> [ActivityRecord] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRows(
                "SELECT * FROM activity WHERE household_id = \(householdID) ORDER BY id DESC LIMIT \(limit)"
            ).map(ActivityRecord.init)
        }
    }
}

extension PostgresSession {
    /// The members of a household the caller belongs to, oldest first (404 for anyone else).
    func members(_ householdID: String, asMember userID: String) async throws -> [MemberRecord] {
        let members = try await allMembers(householdID)
        guard members.contains(where: { $0.userId == userID }) else { throw HouseholdError.notFound("The household") }
        return members
    }

    /// The members' ids for the money routes: the caller is a member, or left with a balance here.
    func settlingMembers(_ householdID: String, asParty userID: String) async throws -> [String] {
        let members = try await allMembers(householdID).map(\.userId)
        if !members.contains(userID) {
            guard try await hasBalance(householdID, userID) else { throw HouseholdError.notFound("The household") }
        }
        return members
    }

    /// Whether the user has a non-zero balance in some currency of the household.
    func hasBalance(_ householdID: String, _ userID: String) async throws -> Bool {
        guard !PostgresHouseholdStore.holdsNUL(userID) else { return false }
        return try await namedRow(
            "SELECT 1 FROM member_balances WHERE household_id = \(householdID) AND user_id = \(userID) LIMIT 1") != nil
    }

    func allMembers(_ householdID: String) async throws -> [MemberRecord] {
        try await namedRows(
            """
            SELECT household_id, user_id, joined_at FROM members WHERE household_id = \(householdID)
            ORDER BY joined_at, seq
            """
        ).map(MemberRecord.init)
    }

    /// The household and its members, the caller among them (else 404).
    func household(_ householdID: String, asMember userID: String) async throws -> (HouseholdRecord, [MemberRecord]) {
        let rows = try await namedRows(
            """
            SELECT \(unescaped: HouseholdRecord.columns), m.household_id, m.user_id, m.joined_at
            FROM households h JOIN members m ON m.household_id = h.id
            WHERE h.id = \(householdID) ORDER BY m.joined_at, m.seq
            """)
        guard let first = rows.first else { throw HouseholdError.notFound("The household") }
        let members = try rows.map(MemberRecord.init)
        guard members.contains(where: { $0.userId == userID }) else { throw HouseholdError.notFound("The household") }
        return (try HouseholdRecord(first), members)
    }

    func requireHomeless(_ userID: String) async throws {
        if try await namedRow("SELECT 1 FROM members WHERE user_id = \(userID)") != nil {
            throw HouseholdError.alreadyInHousehold(.you)
        }
    }

    /// Adds an event to the household's activity feed (inside the transaction that made the change).
    func record(_ householdID: String, _ kind: String, _ actorID: String, _ subject: String, _ now: Date)
        async throws
    {
        try await execute(
            """
            INSERT INTO activity (household_id, kind, actor_id, subject, created_at)
            VALUES (\(householdID), \(kind), \(actorID), \(subject), \(now.storedMilliseconds))
            """)
    }
}
