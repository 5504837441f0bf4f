import Foundation
import PostgresNIO
import ServiceKit

/// Reports, the admin queue and mutes (see ``PackReports``). Each write locks the item's pack first, as every
/// writer of a pack does, so the count that hides an item sees every report before it.
extension PostgresGeoStore {
    static let reportColumns = """
        r.id, r.kind, r.item_id, r.pack_id, r.writer_id, r.reporter_id, r.reason, r.note, r.created_at, r.decision, \
        r.decided_by, r.decided_at
        """

    static func report(_ row: PostgresRow) throws -> ReportRecord {
        let (id, kind, itemID, packID, writer, reporter, reason, note, createdAt, decision, decidedBy, decidedAt) =
            try row.decode(
                (Int64, String, Int64, Int64, String, String, String, String?, Int64, String?, String?, Int64?).self)
        return ReportRecord(
            id: id, kind: kind, itemId: itemID, packId: packID, writerId: writer, reporterId: reporter, reason: reason,
            note: note, createdAt: Date(storedMilliseconds: createdAt), decision: decision, decidedBy: decidedBy,
            decidedAt: decidedAt.map(Date.init(storedMilliseconds:)))
    }

    /// A post or comment the viewer may read from `position`, with the post it is (on); its pack locked.
    static func readableItem(
        _ session: PostgresSession, _ kind: PackReports.Kind, _ itemID: Int64, viewer: String,
        at position: ClientPosition?, now: Date
    ) async throws -> (writer: String, pseudonym: String, listing: PostListing) {
        switch kind {
        case .post:
            let listing = try await readablePost(session, itemID, viewer: viewer, at: position, now: now, lock: true)
            return (listing.post.authorId, listing.post.pseudonym, listing)
        case .comment:
            guard
                let postID = try await session.value(
                    "SELECT post_id FROM comments WHERE id = \(itemID)", as: Int64.self),
                let listing = try await post(session, postID, viewer: viewer, now: now, lock: true),
                let comment = try await session.first(
                    "SELECT \(unescaped: commentColumns) FROM comments c WHERE c.id = \(itemID)", Self.comment),
                !comment.hidden || comment.authorId == viewer
            else { throw kind.missing }
            try listing.pack.fence.check(position)
            return (comment.authorId, comment.pseudonym, listing)
        }
    }

    func report(
        _ kind: PackReports.Kind, _ itemID: Int64, reporter: String, reason: PackReports.Reason, note: String?,
        threshold: Int, at position: ClientPosition?, now: Date
    ) async throws -> (report: ReportRecord, created: Bool) {
        try await write { session in
            let item = try await Self.readableItem(session, kind, itemID, viewer: reporter, at: position, now: now)
            guard item.writer != reporter else { throw GeoError.ownItem(action: "report") }
            if let open = try await session.first(
                """
                SELECT \(unescaped: Self.reportColumns) FROM reports r
                WHERE r.kind = \(kind.rawValue) AND r.item_id = \(itemID) AND r.reporter_id = \(reporter)
                    AND r.decided_at IS NULL
                """, Self.report)
            {
                return (open, false)
            }
            var report = ReportRecord(
                id: nil, kind: kind.rawValue, itemId: itemID, packId: item.listing.pack.id ?? 0, writerId: item.writer,
                reporterId: reporter, reason: reason.rawValue, note: note, createdAt: now)
            report.id = try await session.value(
                """
                INSERT INTO reports (kind, item_id, pack_id, writer_id, reporter_id, reason, note, created_at)
                VALUES (\(report.kind), \(itemID), \(report.packId), \(report.writerId), \(reporter),
                    \(report.reason), \(note), \(now.storedMilliseconds))
                RETURNING id
                """, as: Int64.self)
            let reporters =
                try await session.value(
                    """
                    SELECT count(*) FROM reports WHERE kind = \(kind.rawValue) AND item_id = \(itemID)
                        AND decided_at IS NULL
                    """, as: Int.self) ?? 0
            if PackReports.hides(reporters: reporters, threshold: threshold) {
                try await Self.setHidden(session, kind, itemID, true)
            }
            return (report, true)
        }
    }

    /// Hides or shows an item; a comment's post counts only its shown comments. An item shown again stays hidden
    /// when its votes hid it (``VoteTally/hides``).
    static func setHidden(_ session: PostgresSession, _ kind: PackReports.Kind, _ itemID: Int64, _ hidden: Bool)
        async throws
    {
        switch kind {
        case .post:
            try await session.execute(
                """
                UPDATE posts SET hidden = (\(hidden) OR up_votes - down_votes <= \(PackLimits.hidingScore))
                WHERE id = \(itemID)
                """)
        case .comment:
            guard
                let comment = try await session.first(
                    "SELECT \(unescaped: commentColumns) FROM comments c WHERE c.id = \(itemID)", Self.comment)
            else { return }
            let hidden = hidden || comment.tally.hides
            guard comment.hidden != hidden else { return }
            try await session.execute("UPDATE comments SET hidden = \(hidden) WHERE id = \(itemID)")
            try await session.execute(
                "UPDATE posts SET comment_count = comment_count + \(hidden ? -1 : 1) WHERE id = \(comment.postId)")
        }
    }

    func reportQueue(order: PackReports.QueueOrder, after cursor: ReportQueueCursor?, limit: Int) async throws
        -> [(entry: ReportQueueEntry, item: ReportedPackItem)]
    {
        try await write(.repeatableRead) { session in
            // Only items that still exist: a writer may have deleted theirs, a pack may have expired.
            let first = cursor?.first ?? 0
            let rows: [PostgresRow]
            switch order {
            case .oldest:
                rows = try await session.rows(
                    """
                    SELECT kind, item_id, min(id) AS first_id, count(*) AS report_count FROM reports
                    WHERE decided_at IS NULL AND ((kind = 'post' AND item_id IN (SELECT id FROM posts))
                        OR (kind = 'comment' AND item_id IN (SELECT id FROM comments)))
                    GROUP BY kind, item_id HAVING min(id) > \(first)
                    ORDER BY first_id LIMIT \(limit)
                    """)
            case .most:
                let count = cursor?.count ?? Int.max
                rows = try await session.rows(
                    """
                    SELECT kind, item_id, min(id) AS first_id, count(*) AS report_count FROM reports
                    WHERE decided_at IS NULL AND ((kind = 'post' AND item_id IN (SELECT id FROM posts))
                        OR (kind = 'comment' AND item_id IN (SELECT id FROM comments)))
                    GROUP BY kind, item_id
                    HAVING count(*) < \(count) OR (count(*) = \(count) AND min(id) > \(first))
                    ORDER BY report_count DESC, first_id LIMIT \(limit)
                    """)
            }
            var found: [(entry: ReportQueueEntry, item: ReportedPackItem)] = []
            for row in rows {
                let (kindName, itemID, firstID, reports) = try row.decode((String, Int64, Int64, Int).self)
                guard let kind = PackReports.Kind(rawValue: kindName),
                    let item = try await Self.reportedItem(session, kind, itemID)
                else { continue }
                found.append((ReportQueueEntry(kind: kind, itemId: itemID, first: firstID, count: reports), item))
            }
            return found
        }
    }

    /// An item as admins see it, with its open reports.
    static func reportedItem(_ session: PostgresSession, _ kind: PackReports.Kind, _ itemID: Int64) async throws
        -> ReportedPackItem?
    {
        let reports = try await session.rows(
            """
            SELECT \(unescaped: reportColumns) FROM reports r
            WHERE r.kind = \(kind.rawValue) AND r.item_id = \(itemID) AND r.decided_at IS NULL ORDER BY r.id
            """
        ).map(Self.report)
        let comment =
            kind == .comment
            ? try await session.first(
                "SELECT \(unescaped: commentColumns) FROM comments c WHERE c.id = \(itemID)", Self.comment) : nil
        guard kind == .post || comment != nil,
            let post = try await session.first(
                "SELECT \(unescaped: postColumns) FROM posts ps WHERE ps.id = \(comment?.postId ?? itemID)", Self.post),
            let pack = try await pack(session, post.packId)
        else { return nil }
        return ReportedPackItem(post: post, comment: comment, in: pack, reports: reports)
    }

    func decideReports(
        on kind: PackReports.Kind, _ itemID: Int64, _ decision: PackReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<ReportedPackItem>?
    ) async throws -> ReportedPackItem {
        try await database.write(reporting: notices) { session in
            // The pack's lock first, as every writer of the pack takes it.
            let packID = try await session.value(
                "SELECT pack_id FROM reports WHERE kind = \(kind.rawValue) AND item_id = \(itemID) LIMIT 1",
                as: Int64.self)
            if let packID { _ = try await Self.pack(session, packID, lock: true) }
            guard var item = try await Self.reportedItem(session, kind, itemID), !item.reports.isEmpty else {
                throw GeoError.notFound("An open report of this \(kind.rawValue)")
            }
            try await session.execute(
                """
                UPDATE reports SET decision = \(decision.rawValue), decided_by = \(admin),
                    decided_at = \(now.storedMilliseconds)
                WHERE kind = \(kind.rawValue) AND item_id = \(itemID) AND decided_at IS NULL
                """)
            item.reports = item.reports.map {
                var report = $0
                (report.decision, report.decidedBy, report.decidedAt) = (decision.rawValue, admin, now)
                return report
            }
            switch (decision, kind) {
            case (.keep, _):
                try await Self.setHidden(session, kind, itemID, false)
            case (.remove, .post):
                if let votes = try await session.first(
                    "DELETE FROM posts WHERE id = \(itemID) RETURNING up_votes, down_votes",
                    { try $0.decode((Int, Int).self) })
                {
                    try await session.execute(
                        """
                        UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - \(votes.0),
                            down_votes = down_votes - \(votes.1) WHERE id = \(item.packId)
                        """)
                }
            case (.remove, .comment):
                if let (postID, hidden) = try await session.first(
                    "DELETE FROM comments WHERE id = \(itemID) RETURNING post_id, hidden",
                    { try $0.decode((Int64, Bool).self) }), !hidden
                {
                    try await session.execute(
                        "UPDATE posts SET comment_count = comment_count - 1 WHERE id = \(postID)")
                }
            }
            return item
        }
    }

    func muteWriter(
        of kind: PackReports.Kind, _ itemID: Int64, muter: String, at position: ClientPosition?, now: Date
    ) async throws -> (packID: Int64, pseudonym: String) {
        try await write { session in
            let item = try await Self.readableItem(session, kind, itemID, viewer: muter, at: position, now: now)
            guard item.writer != muter else { throw GeoError.ownItem(action: "mute") }
            let packID = item.listing.pack.id ?? 0
            try await session.execute(
                """
                INSERT INTO pack_mutes (pack_id, muter_id, writer_id, created_at)
                VALUES (\(packID), \(muter), \(item.writer), \(now.storedMilliseconds))
                ON CONFLICT DO NOTHING
                """)
            return (packID, item.pseudonym)
        }
    }
}
