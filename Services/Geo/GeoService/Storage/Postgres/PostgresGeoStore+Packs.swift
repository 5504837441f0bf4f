import Foundation
import PostgresNIO
import ServiceKit

/// Packs and their members. A write of a pack's members or counters locks the pack's row first; a write bounded by
/// a user's count of packs (live packs, memberships) takes the user's lock first.
extension PostgresGeoStore {
    func createPack(_ pack: PackRecord, now: Date) async throws -> PackRecord {
        try await write { session in
            try await session.lockUser(pack.alphaId)
            if !pack.official {
                let live =
                    try await session.value(
                        """
                        SELECT count(*) FROM packs
                        WHERE alpha_id = \(pack.alphaId) AND NOT official AND expires_at > \(now.storedMilliseconds)
                        """, as: Int.self) ?? 0
                guard live < PackLimits.livePacksPerAlpha else { throw GeoError.tooManyLivePacks }
            }
            try await Self.checkMembershipRoom(session, user: pack.alphaId, now: now)
            var pack = pack
            pack.id = try await session.value(
                """
                INSERT INTO packs (name, latitude, longitude, radius_meters, tags, color, icon, locked, alpha_id, official,
                    member_count, post_count, up_votes, down_votes, created_at, expires_at, warned)
                VALUES (\(pack.name), \(pack.latitude), \(pack.longitude), \(pack.radiusMeters), \(pack.tags),
                    \(pack.color), \(pack.icon), \(pack.locked), \(pack.alphaId), \(pack.official), \(pack.memberCount),
                    \(pack.postCount), \(pack.upVotes), \(pack.downVotes), \(pack.createdAt.storedMilliseconds),
                    \(pack.expiresAt?.storedMilliseconds), \(pack.warned))
                RETURNING id
                """, as: Int64.self)
            try await Self.addMember(session, pack: &pack, user: pack.alphaId, key: pseudonymKey, now: now)
            return pack
        }
    }

    func livePack(_ id: Int64, now: Date) async throws -> PackRecord {
        try await read { session in try await Self.livePack(session, id, now: now) }
    }

    func readablePack(_ id: Int64, at position: ClientPosition?, now: Date) async throws -> PackRecord {
        try await read { session in
            let pack = try await Self.livePack(session, id, now: now)
            try pack.fence.check(position)
            return pack
        }
    }

    /// A live pack; with `lock`, its row is locked until the transaction ends (its writes queue one after the other,
    /// as behind SQLite's single writer).
    static func livePack(_ session: PostgresSession, _ id: Int64, now: Date, lock: Bool = false) async throws
        -> PackRecord
    {
        guard let pack = try await pack(session, id, lock: lock), pack.isLive(at: now) else {
            throw GeoError.notFound("The pack")
        }
        return pack
    }

    static func pack(_ session: PostgresSession, _ id: Int64, lock: Bool = false) async throws -> PackRecord? {
        try await session.first(
            "SELECT \(unescaped: packColumns) FROM packs pk WHERE pk.id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")",
            Self.pack)
    }

    static func packs(_ session: PostgresSession, ids: some Collection<Int64>) async throws -> [PackRecord] {
        guard !ids.isEmpty else { return [] }
        return try await session.rows(
            "SELECT \(unescaped: packColumns) FROM packs pk WHERE pk.id = ANY(\(Array(ids))) ORDER BY pk.id"
        ).map(Self.pack)
    }

    func memberships(of user: String, in packIDs: [Int64]) async throws -> [Int64: String] {
        guard !packIDs.isEmpty else { return [:] }
        return try await read { session in
            let rows = try await session.rows(
                """
                SELECT pack_id, pseudonym FROM pack_members
                WHERE user_id = \(user) AND active AND pack_id = ANY(\(packIDs))
                """)
            return Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((Int64, String).self) })
        }
    }

    func join(_ packID: Int64, user: String, at position: ClientPosition?, now: Date) async throws -> PackRecord {
        try await write { session in
            try await session.lockUser(user)
            var pack = try await Self.livePack(session, packID, now: now, lock: true)
            try pack.fence.check(position)
            let active = try await session.value(
                "SELECT active FROM pack_members WHERE pack_id = \(packID) AND user_id = \(user)", as: Bool.self)
            if active == true { return pack }
            try await Self.checkMembershipRoom(session, user: user, now: now)
            try await Self.addMember(session, pack: &pack, user: user, key: pseudonymKey, now: now)
            return pack
        }
    }

    func leave(_ packID: Int64, user: String, now: Date) async throws {
        try await write { session in
            _ = try await Self.livePack(session, packID, now: now, lock: true)
            let left = try await session.execute(
                """
                UPDATE pack_members SET active = false WHERE pack_id = \(packID) AND user_id = \(user) AND active
                RETURNING 1
                """)
            guard left > 0 else { throw GeoError.notInPack }
            try await session.execute("UPDATE packs SET member_count = member_count - 1 WHERE id = \(packID)")
        }
    }

    func closePack(_ packID: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        // Stored dates keep milliseconds, rounded: a millisecond back, the pack reads as ended at `now` everywhere.
        let end = now.addingTimeInterval(-0.001).storedMilliseconds
        try await write { session in
            let pack = try await Self.livePack(session, packID, now: now, lock: true)
            try PackAccess.requireMayClose(
                alpha: try await Self.actingAlpha(session, of: pack), viewer: viewer, isAdmin: isAdmin)
            let closed = try await session.execute(
                """
                UPDATE packs SET expires_at = \(end)
                WHERE id = \(packID) AND (expires_at IS NULL OR expires_at > \(now.storedMilliseconds))
                RETURNING 1
                """)
            guard closed > 0 else { throw GeoError.notFound("The pack") }
        }
    }

    /// The pack's alpha while they are an active member; `nil` once they left (their rights went with them).
    static func actingAlpha(_ session: PostgresSession, of pack: PackRecord) async throws -> String? {
        let member = try await session.value(
            "SELECT true FROM pack_members WHERE pack_id = \(pack.id) AND user_id = \(pack.alphaId) AND active",
            as: Bool.self)
        return member == true ? pack.alphaId : nil
    }

    func editPack(_ packID: Int64, by viewer: String, isAdmin: Bool, now: Date, _ change: PackEdit) async throws
        -> PackRecord
    {
        try await write { session in
            var pack = try await Self.livePack(session, packID, now: now, lock: true)
            try PackAccess.requireMayClose(
                alpha: try await Self.actingAlpha(session, of: pack), viewer: viewer, isAdmin: isAdmin)
            try change.apply(to: &pack)
            try await session.execute(
                """
                UPDATE packs SET name = \(pack.name), tags = \(pack.tags), color = \(pack.color), icon = \(pack.icon),
                    radius_meters = \(pack.radiusMeters), locked = \(pack.locked)
                WHERE id = \(packID)
                """)
            return pack
        }
    }

    func packs(of user: String, now: Date) async throws -> [PackRecord] {
        try await read { session in
            try await session.rows(
                """
                SELECT \(unescaped: Self.packColumns) FROM pack_members m JOIN packs pk ON pk.id = m.pack_id
                WHERE m.user_id = \(user) AND m.active
                    AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                ORDER BY pk.id DESC
                """
            ).map(Self.pack)
        }
    }

    /// Live packs whose centre lies in the box, through `packs_spatial` (SQLite's `packs_rtree`).
    func packs(in box: BoundingBox, now: Date) async throws -> [PackRecord] {
        try await read { session in
            var packs: [PackRecord] = []
            for range in box.longitudeRanges {
                packs += try await session.rows(
                    """
                    SELECT \(unescaped: Self.packColumns) FROM packs pk
                    WHERE point(pk.longitude, pk.latitude)
                            <@ box(point(\(range.lowerBound), \(box.south)), point(\(range.upperBound), \(box.north)))
                        AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                    ORDER BY pk.id
                    """
                ).map(Self.pack).filter {
                    // GiST's box is fuzzy by 1e-6 degrees: the exact bounds SQLite's R*Tree query had.
                    (box.south...box.north).contains($0.latitude) && range.contains($0.longitude)
                }
            }
            return packs
        }
    }

    // MARK: Shared steps

    static func checkMembershipRoom(_ session: PostgresSession, user: String, now: Date) async throws {
        let count =
            try await session.value(
                """
                SELECT count(*) FROM pack_members m JOIN packs pk ON pk.id = m.pack_id
                WHERE m.user_id = \(user) AND m.active
                    AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                """, as: Int.self) ?? 0
        guard count < PackLimits.membershipsPerUser else { throw GeoError.tooManyMemberships }
    }

    /// Adds or reactivates a member, giving a first-time member a pseudonym nobody in the pack holds.
    static func addMember(_ session: PostgresSession, pack: inout PackRecord, user: String, key: Data, now: Date)
        async throws
    {
        let packID = pack.id ?? 0
        let known = try await session.value(
            "SELECT pseudonym FROM pack_members WHERE pack_id = \(packID) AND user_id = \(user)", as: String.self)
        if known != nil {
            try await session.execute(
                """
                UPDATE pack_members SET active = true, joined_at = \(now.storedMilliseconds)
                WHERE pack_id = \(packID) AND user_id = \(user)
                """)
        } else {
            var attempt = 0
            while true {
                let name = Pseudonyms.candidate(key: key, pack: packID, user: user, attempt: attempt)
                let taken = try await session.value(
                    "SELECT true FROM pack_members WHERE pack_id = \(packID) AND pseudonym = \(name)", as: Bool.self)
                if taken == nil {
                    try await session.execute(
                        """
                        INSERT INTO pack_members (pack_id, user_id, pseudonym, active, joined_at)
                        VALUES (\(packID), \(user), \(name), true, \(now.storedMilliseconds))
                        """)
                    break
                }
                attempt += 1
            }
        }
        try await session.execute("UPDATE packs SET member_count = member_count + 1 WHERE id = \(packID)")
        try await refreshExpiry(session, packID: packID, now: now)
        if let refreshed = try await Self.pack(session, packID) { pack = refreshed }
    }

    /// Moves a user pack's expiry later when it became more popular (never earlier).
    static func refreshExpiry(_ session: PostgresSession, packID: Int64, now: Date) async throws {
        guard let (expiresAt, warned) = try await pack(session, packID)?.refreshedExpiry(now: now) else { return }
        try await session.execute(
            "UPDATE packs SET expires_at = \(expiresAt.storedMilliseconds), warned = \(warned) WHERE id = \(packID)")
    }
}
