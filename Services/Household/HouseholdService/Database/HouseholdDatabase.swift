import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The household service's storage: the only place that knows SQL. Each method is one transaction, and
/// every change that belongs in the activity feed writes its activity row in that same transaction.
struct HouseholdDatabase: Sendable {
    let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: HouseholdMigrations.migrator)
    }

    // MARK: Membership

    /// The members of a household the caller belongs to, oldest first; a 404 for anyone else, so a
    /// household's existence is not revealed to outsiders.
    func members(of householdID: String, asMember userID: String) async throws -> [MemberRow] {
        try await writer.read { db in try Self.members(db, householdID, asMember: userID) }
    }

    static func members(_ db: Database, _ householdID: String, asMember userID: String) throws -> [MemberRow] {
        let members = try MemberRow.fetchAll(
            db, sql: "SELECT * FROM members WHERE household_id = ? ORDER BY joined_at, rowid", arguments: [householdID])
        guard members.contains(where: { $0.userId == userID }) else { throw Problem.notFound("The household") }
        return members
    }

    func household(of userID: String) async throws -> (HouseholdRow, [MemberRow])? {
        try await writer.read { db in
            guard let membership = try MemberRow.filter(Column("user_id") == userID).fetchOne(db),
                let household = try HouseholdRow.fetchOne(db, key: membership.householdId)
            else { return nil }
            return (household, try Self.members(db, household.id, asMember: userID))
        }
    }

    func household(id: String, asMember userID: String) async throws -> (HouseholdRow, [MemberRow]) {
        try await writer.read { db in
            let members = try Self.members(db, id, asMember: userID)
            guard let household = try HouseholdRow.fetchOne(db, key: id) else {
                throw Problem.notFound("The household")
            }
            return (household, members)
        }
    }

    func createHousehold(_ household: HouseholdRow) async throws {
        try await writer.write { db in
            try Self.requireHomeless(db, household.createdBy, "You are already in a household; leave it first.")
            try household.insert(db)
            try MemberRow(householdId: household.id, userId: household.createdBy, joinedAt: household.createdAt).insert(
                db)
            try Self.record(
                db, household.id, "member_joined", household.createdBy, "created the household", household.createdAt)
        }
    }

    private static func requireHomeless(_ db: Database, _ userID: String, _ detail: String) throws {
        if try MemberRow.filter(Column("user_id") == userID).fetchCount(db) > 0 {
            throw Problem.conflict("already_in_household", detail)
        }
    }

    // MARK: Invitations

    func invite(_ invitation: InvitationRow) async throws {
        try await writer.write { db in
            _ = try Self.members(db, invitation.householdId, asMember: invitation.inviterId)
            try Self.requireHomeless(db, invitation.inviteeId, "That user is already in a household.")
            let pending = try InvitationRow.filter(
                Column("household_id") == invitation.householdId && Column("invitee_id") == invitation.inviteeId
                    && Column("status") == "pending"
            ).fetchCount(db)
            guard pending == 0 else {
                throw Problem.conflict("already_invited", "That user already has an invitation.")
            }
            try invitation.insert(db)
        }
    }

    func pendingInvitations(for userID: String) async throws -> [(InvitationRow, HouseholdRow)] {
        try await writer.read { db in
            try InvitationRow.filter(Column("invitee_id") == userID && Column("status") == "pending")
                .order(Column("created_at").desc).fetchAll(db)
                .compactMap { invitation in
                    try HouseholdRow.fetchOne(db, key: invitation.householdId).map { (invitation, $0) }
                }
        }
    }

    /// Accepts or declines an invitation addressed to `userID`; returns the household joined, if any.
    func respond(to invitationID: String, as userID: String, accept: Bool, now: Date) async throws -> String {
        try await writer.write { db in
            guard var invitation = try InvitationRow.fetchOne(db, key: invitationID), invitation.inviteeId == userID
            else { throw Problem.notFound("The invitation") }
            guard invitation.status == "pending" else {
                throw Problem.conflict("invitation_not_pending", "The invitation was already \(invitation.status).")
            }
            invitation.status = accept ? "accepted" : "declined"
            invitation.respondedAt = now
            try invitation.update(db)
            if accept {
                try Self.requireHomeless(db, userID, "You are already in a household; leave it first.")
                try MemberRow(householdId: invitation.householdId, userId: userID, joinedAt: now).insert(db)
                try Self.record(db, invitation.householdId, "member_joined", userID, "joined the household", now)
            }
            return invitation.householdId
        }
    }

    /// Removes `userID` from the household (leaving, or removed by its creator), hands their chores to
    /// the next member, and deletes a household nobody is left in. Returns the members who remain.
    func removeMember(_ userID: String, from householdID: String, by actorID: String, now: Date) async throws
        -> [String]
    {
        try await writer.write { db in
            let members = try Self.members(db, householdID, asMember: actorID).map(\.userId)
            guard members.contains(userID) else { throw Problem.notFound("The member") }
            if userID != actorID {
                let creator = try String.fetchOne(
                    db, sql: "SELECT created_by FROM households WHERE id = ?", arguments: [householdID])
                guard creator == actorID else {
                    throw Problem.forbidden("not_household_admin", "Only the household's creator can remove members.")
                }
            }
            try db.execute(
                sql: "DELETE FROM members WHERE household_id = ? AND user_id = ?", arguments: [householdID, userID])
            // An invitation speaks for its inviter: it lapses when they leave (migration v5 did so for earlier ones).
            try db.execute(
                sql: """
                    UPDATE invitations SET status = 'withdrawn', responded_at = ?
                    WHERE household_id = ? AND inviter_id = ? AND status = 'pending'
                    """,
                arguments: [now, householdID, userID])
            let remaining = members.filter { $0 != userID }
            guard !remaining.isEmpty else {
                try db.execute(sql: "DELETE FROM households WHERE id = ?", arguments: [householdID])
                return []
            }
            for var chore in try ChoreRow.filter(
                Column("household_id") == householdID && Column("assignee_id") == userID
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

    static func record(
        _ db: Database, _ householdID: String, _ kind: String, _ actorID: String, _ subject: String, _ now: Date
    )
        throws
    {
        try ActivityRow(
            id: nil, householdId: householdID, kind: kind, actorId: actorID, subject: subject, createdAt: now
        )
        .insert(db)
    }

    /// The household's latest events, newest first.
    func activity(of householdID: String, asMember userID: String, limit: Int = 30) async throws -> [ActivityRow] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try ActivityRow.fetchAll(
                db, sql: "SELECT * FROM activity WHERE household_id = ? ORDER BY id DESC LIMIT ?",
                arguments: [householdID, limit])
        }
    }
}
