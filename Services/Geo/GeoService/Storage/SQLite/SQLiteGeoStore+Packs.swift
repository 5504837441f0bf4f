import Foundation
import GRDB
import ServiceKit

/// Packs and their members. Every read takes `now`: a pack past its expiry is gone at once, before the sweep
/// flushes its rows.
extension SQLiteGeoStore {
    /// Creates a pack with its alpha as the first member; a user (not an admin) has at most
    /// ``PackLimits/livePacksPerAlpha`` live packs.
    func createPack(_ pack: PackRecord, now: Date) async throws -> PackRecord {
        try await write { db in
            if !pack.official {
                let live =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT count(*) FROM packs WHERE alpha_id = ? AND official = 0 AND expires_at > ?"),
                        arguments: [pack.alphaId, now]) ?? 0
                guard live < PackLimits.livePacksPerAlpha else { throw GeoError.tooManyLivePacks }
            }
            try Self.checkMembershipRoom(db, user: pack.alphaId, now: now)
            var pack = pack
            try pack.insert(db)
            try Self.addMember(db, pack: &pack, user: pack.alphaId, key: pseudonymKey, now: now)
            return pack
        }
    }

    /// A live pack; one that never existed or has expired is not found.
    func livePack(_ id: Int64, now: Date) async throws -> PackRecord {
        try await read { db in try Self.livePack(db, id, now: now) }
    }

    /// A live pack whose content may be seen from `position`.
    func readablePack(_ id: Int64, at position: ClientPosition?, now: Date) async throws -> PackRecord {
        try await read { db in
            let pack = try Self.livePack(db, id, now: now)
            try pack.fence.check(position)
            return pack
        }
    }

    static func livePack(_ db: Database, _ id: Int64, now: Date) throws -> PackRecord {
        guard let pack = try PackRecord.fetchOne(db, key: id), pack.isLive(at: now) else {
            throw GeoError.notFound("The pack")
        }
        return pack
    }

    /// The viewer's pseudonym in each of these packs they are an active member of.
    func memberships(of user: String, in packIDs: [Int64]) async throws -> [Int64: String] {
        guard !packIDs.isEmpty else { return [:] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT pack_id, pseudonym FROM pack_members
                        WHERE user_id = ? AND active = 1 AND pack_id IN (SELECT value FROM json_each(?))
                        """), arguments: [user, StoredJSON.array(packIDs)])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as String) })
        }
    }

    /// Joins a live pack (again), a locked one only from inside its radius; the pseudonym is the one the user had
    /// there before, if any.
    func join(_ packID: Int64, user: String, at position: ClientPosition?, now: Date) async throws -> PackRecord {
        try await write { db in
            var pack = try Self.livePack(db, packID, now: now)
            try pack.fence.check(position)
            let active = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT active FROM pack_members WHERE pack_id = ? AND user_id = ?"),
                arguments: [packID, user])
            if active == true { return pack }
            try Self.checkMembershipRoom(db, user: user, now: now)
            try Self.addMember(db, pack: &pack, user: user, key: pseudonymKey, now: now)
            return pack
        }
    }

    /// Leaves a pack; the pseudonym stays reserved so nobody else writes under it.
    func leave(_ packID: Int64, user: String, now: Date) async throws {
        try await write { db in
            _ = try Self.livePack(db, packID, now: now)
            try db.execute(
                sql: "UPDATE pack_members SET active = 0 WHERE pack_id = ? AND user_id = ? AND active = 1",
                arguments: [packID, user])
            guard db.changesCount > 0 else { throw GeoError.notInPack }
            try db.execute(sql: "UPDATE packs SET member_count = member_count - 1 WHERE id = ?", arguments: [packID])
        }
    }

    /// Ends a live pack now, for its alpha or an admin; the sweep flushes its content.
    func closePack(_ packID: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        // Stored dates keep milliseconds, rounded: a millisecond back, the pack reads as ended at `now` everywhere.
        let end = now.addingTimeInterval(-0.001)
        try await write { db in
            let pack = try Self.livePack(db, packID, now: now)
            try PackAccess.requireMayClose(alpha: try Self.actingAlpha(db, of: pack), viewer: viewer, isAdmin: isAdmin)
            try db.execute(
                sql: "UPDATE packs SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)",
                arguments: [end, packID, now])
            guard db.changesCount > 0 else { throw GeoError.notFound("The pack") }
        }
    }

    /// The pack's alpha while they are an active member; `nil` once they left (their rights went with them).
    static func actingAlpha(_ db: Database, of pack: PackRecord) throws -> String? {
        let member = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM pack_members WHERE pack_id = ? AND user_id = ? AND active = 1"),
            arguments: [pack.id, pack.alphaId])
        return member == true ? pack.alphaId : nil
    }

    /// Edits a live pack's face (name, tags, colour, icon) and, while it has no posts, its radius and lock; for
    /// its acting alpha or an admin. `change` applies the validated edit.
    func editPack(
        _ packID: Int64, by viewer: String, isAdmin: Bool, now: Date, _ change: PackEdit
    ) async throws -> PackRecord {
        try await write { db in
            var pack = try Self.livePack(db, packID, now: now)
            try PackAccess.requireMayClose(alpha: try Self.actingAlpha(db, of: pack), viewer: viewer, isAdmin: isAdmin)
            try change.apply(to: &pack)
            try pack.update(db)
            return pack
        }
    }

    /// The live packs a user is an active member of, newest first.
    func packs(of user: String, now: Date) async throws -> [PackRecord] {
        try await read { db in
            try PackRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT packs.* FROM pack_members JOIN packs ON packs.id = pack_members.pack_id
                        WHERE pack_members.user_id = ? AND pack_members.active = 1
                            AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        ORDER BY packs.id DESC
                        """), arguments: [user, now])
        }
    }

    /// Live packs whose centre lies in the box (discover widens it by the largest pack radius first).
    func packs(in box: BoundingBox, now: Date) async throws -> [PackRecord] {
        try await read { db in
            var packs: [PackRecord] = []
            for range in box.longitudeRanges {
                packs += try PackRecord.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT packs.* FROM packs_rtree JOIN packs ON packs.id = packs_rtree.id
                            WHERE packs_rtree.min_lat <= ? AND packs_rtree.max_lat >= ?
                                AND packs_rtree.min_lon <= ? AND packs_rtree.max_lon >= ?
                                AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                            """), arguments: [box.north, box.south, range.upperBound, range.lowerBound, now])
            }
            return packs
        }
    }

    // MARK: Shared steps

    static func checkMembershipRoom(_ db: Database, user: String, now: Date) throws {
        let count =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM pack_members JOIN packs ON packs.id = pack_members.pack_id
                        WHERE pack_members.user_id = ? AND pack_members.active = 1
                            AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        """), arguments: [user, now]) ?? 0
        guard count < PackLimits.membershipsPerUser else { throw GeoError.tooManyMemberships }
    }

    /// Adds or reactivates a member, giving a first-time member a pseudonym nobody in the pack holds.
    static func addMember(_ db: Database, pack: inout PackRecord, user: String, key: Data, now: Date) throws {
        let packID = pack.id ?? 0
        let known = try String.fetchOne(
            db.cachedStatement(sql: "SELECT pseudonym FROM pack_members WHERE pack_id = ? AND user_id = ?"),
            arguments: [packID, user])
        if known != nil {
            try db.execute(
                sql: "UPDATE pack_members SET active = 1, joined_at = ? WHERE pack_id = ? AND user_id = ?",
                arguments: [now, packID, user])
        } else {
            var attempt = 0
            while true {
                let name = Pseudonyms.candidate(key: key, pack: packID, user: user, attempt: attempt)
                let taken = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM pack_members WHERE pack_id = ? AND pseudonym = ?"),
                    arguments: [packID, name])
                if taken == nil {
                    try db.execute(
                        sql: """
                            INSERT INTO pack_members (pack_id, user_id, pseudonym, active, joined_at)
                            VALUES (?, ?, ?, 1, ?)
                            """, arguments: [packID, user, name, now])
                    break
                }
                attempt += 1
            }
        }
        pack.memberCount += 1
        try db.execute(sql: "UPDATE packs SET member_count = member_count + 1 WHERE id = ?", arguments: [packID])
        try refreshExpiry(db, packID: packID, now: now)
        if let refreshed = try PackRecord.fetchOne(db, key: packID) { pack = refreshed }
    }

    /// Moves a user pack's expiry later when it became more popular (never earlier).
    static func refreshExpiry(_ db: Database, packID: Int64, now: Date) throws {
        guard let (expiresAt, warned) = try PackRecord.fetchOne(db, key: packID)?.refreshedExpiry(now: now) else {
            return
        }
        try db.execute(
            sql: "UPDATE packs SET expires_at = ?, warned = ? WHERE id = ?", arguments: [expiresAt, warned, packID])
    }
}
