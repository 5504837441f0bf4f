import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The household store in SQLite through GRDB (the default): one file, one writer. See ``HouseholdStore``.
struct SQLiteHouseholdStore: HouseholdStore {
    private let database: ServiceDatabase
    /// Notices and events waiting for the notifications service, in this database.
    let outbox: (any OutboxStorage)?

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: HouseholdMigrations.migrator)
        self.outbox = SQLiteOutbox(writer: database.writer)
    }

    /// The database itself (record decoding tests read it directly).
    var reader: any DatabaseReader { database.writer }

    var probe: any DatabaseProbe { database }

    var services: [any Service] { [] }

    /// One read transaction (for the `+Concern` files).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction (for the `+Concern` files).
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// One write transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (Database) throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices, body)
    }

    // MARK: Pages

    /// Rows after `cursor` (the last row's `createdAt` and id), newest first.
    static func newestFirst<Record: HouseholdTable>(
        _ request: QueryInterfaceRequest<Record>, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) -> QueryInterfaceRequest<Record> {
        var request = request
        if let cursor {
            request = request.filter(sql: "(created_at, id) < (?, ?)", arguments: [cursor.createdAt, cursor.id])
        }
        return request.order(sql: "created_at DESC, id DESC").limit(limit)
    }

    // MARK: Membership

    /// The members of a household the caller belongs to, oldest first; a 404 for anyone else, so a
    /// household's existence is not revealed to outsiders.
    func members(of householdID: String, asMember userID: String) async throws -> [MemberRecord] {
        try await read { db in try Self.members(db, householdID, asMember: userID) }
    }

    static func members(_ db: Database, _ householdID: String, asMember userID: String) throws -> [MemberRecord] {
        let members = try allMembers(db, householdID)
        guard members.contains(where: { $0.userId == userID }) else { throw HouseholdError.notFound("The household") }
        return members
    }

    /// The members' ids, for the money routes a former member still uses to settle up: the caller is a
    /// member, or left with a balance here that is not zero (else 404, as for anyone outside).
    static func settlingMembers(_ db: Database, _ householdID: String, asParty userID: String) throws -> [String] {
        let members = try allMembers(db, householdID).map(\.userId)
        guard try members.contains(userID) || hasBalance(db, householdID, userID) else {
            throw HouseholdError.notFound("The household")
        }
        return members
    }

    /// Whether the user has a non-zero balance in some currency of the household (running balances keep no zeros).
    static func hasBalance(_ db: Database, _ householdID: String, _ userID: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM member_balances WHERE household_id = ? AND user_id = ?)"),
            arguments: [householdID, userID]) ?? false
    }

    static func allMembers(_ db: Database, _ householdID: String) throws -> [MemberRecord] {
        try MemberRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM members WHERE household_id = ? ORDER BY joined_at, rowid"),
            arguments: [householdID])
    }

    /// The household and its members, the caller among them (else 404).
    ///
    /// One statement, the household's columns beside each member's: most household routes start here, and a
    /// second statement cost more than the household's columns repeated. Each record reads its columns by name,
    /// so the two tables must share none (`RecordDecodingTests` holds them to it).
    static func household(_ db: Database, _ householdID: String, asMember userID: String) throws
        -> (HouseholdRecord, [MemberRecord])
    {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT h.*, m.* FROM households h JOIN members m ON m.household_id = h.id
                    WHERE h.id = ? ORDER BY m.joined_at, m.rowid
                    """),
            arguments: [householdID])
        var household: HouseholdRecord?
        var members: [MemberRecord] = []
        while let row = try rows.next() {
            if household == nil { household = try HouseholdRecord(row: row) }
            members.append(try MemberRecord(row: row))
        }
        guard let household, members.contains(where: { $0.userId == userID }) else {
            throw HouseholdError.notFound("The household")
        }
        return (household, members)
    }

    func household(of userID: String) async throws -> (HouseholdRecord, [MemberRecord])? {
        try await read { db in
            guard let membership = try MemberRecord.filter(MemberRecord.Columns.userId == userID).fetchOne(db),
                let household = try HouseholdRecord.fetchOne(db, key: membership.householdId)
            else { return nil }
            return (household, try Self.members(db, household.id, asMember: userID))
        }
    }

    func household(id: String, asMember userID: String) async throws -> (HouseholdRecord, [MemberRecord]) {
        try await read { db in try Self.household(db, id, asMember: userID) }
    }

    func createHousehold(_ household: HouseholdRecord) async throws {
        try await write { db in
            try Self.requireHomeless(db, household.createdBy, .you)
            try household.insert(db)
            try MemberRecord(householdId: household.id, userId: household.createdBy, joinedAt: household.createdAt)
                .insert(db)
            try Self.record(
                db, household.id, "member_joined", household.createdBy, "created the household", household.createdAt)
        }
    }

    private static func requireHomeless(_ db: Database, _ userID: String, _ who: HouseholdError.Who) throws {
        if try MemberRecord.filter(MemberRecord.Columns.userId == userID).fetchCount(db) > 0 {
            throw HouseholdError.alreadyInHousehold(who)
        }
    }

    // MARK: Invitations

    /// Invites a user to the inviter's household; returns the household, for the invitation's notice. Whether the
    /// invitee is in a household already is not checked: that would tell anyone who can name a user. They may
    /// decline, or accept once they left theirs (``respond(to:as:accept:now:notices:)``).
    @discardableResult
    func invite(_ invitation: InvitationRecord, notices: ChangeNotices<HouseholdRecord>?) async throws
        -> HouseholdRecord
    {
        try await write(reporting: notices) { db in
            let (household, _) = try Self.household(db, invitation.householdId, asMember: invitation.inviterId)
            guard invitation.inviteeId != invitation.inviterId else {
                throw HouseholdError.alreadyInHousehold(.youHere)
            }
            let pending = try InvitationRecord.filter(
                InvitationRecord.Columns.householdId == invitation.householdId
                    && InvitationRecord.Columns.inviteeId == invitation.inviteeId
                    && InvitationRecord.Columns.status == "pending"
            ).fetchCount(db)
            guard pending == 0 else { throw HouseholdError.alreadyInvited }
            try invitation.insert(db)
            return household
        }
    }

    func pendingInvitations(for userID: String) async throws -> [(InvitationRecord, HouseholdRecord)] {
        try await read { db in
            try InvitationRecord.filter(
                InvitationRecord.Columns.inviteeId == userID && InvitationRecord.Columns.status == "pending"
            )
            .order(InvitationRecord.Columns.createdAt.desc).fetchAll(db)
            .compactMap { invitation in
                try HouseholdRecord.fetchOne(db, key: invitation.householdId).map { (invitation, $0) }
            }
        }
    }

    /// Accepts or declines an invitation addressed to `userID`; on acceptance returns the household joined,
    /// with its members as they now are.
    func respond(
        to invitationID: String, as userID: String, accept: Bool, now: Date, notices: ChangeNotices<Joined?>?
    ) async throws -> Joined? {
        try await write(reporting: notices) { db in
            guard var invitation = try InvitationRecord.fetchOne(db, key: invitationID), invitation.inviteeId == userID
            else { throw HouseholdError.notFound("The invitation") }
            guard invitation.status == "pending" else {
                throw HouseholdError.invitationNotPending(status: invitation.status)
            }
            invitation.status = accept ? "accepted" : "declined"
            invitation.respondedAt = now
            try invitation.update(db)
            guard accept else { return nil }
            try Self.requireHomeless(db, userID, .you)
            try MemberRecord(householdId: invitation.householdId, userId: userID, joinedAt: now).insert(db)
            try Self.record(db, invitation.householdId, "member_joined", userID, "joined the household", now)
            return try Self.household(db, invitation.householdId, asMember: userID)
        }
    }
}
