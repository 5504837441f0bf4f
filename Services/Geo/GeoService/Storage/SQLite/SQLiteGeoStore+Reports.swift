import Foundation
import GRDB
import ServiceKit

extension ReportRecord: FetchableRecord, MutablePersistableRecord, SnakeCaseColumns {
    static let databaseTableName = "reports"

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Reports, the admin queue and mutes (see ``PackReports``).
extension SQLiteGeoStore {
    /// A post or comment the viewer may read from `position`, with the post it is (on): what reports and mutes
    /// act on. A hidden comment is missing to all but its writer, as a hidden post is.
    static func readableItem(
        _ db: Database, _ kind: PackReports.Kind, _ itemID: Int64, viewer: String, at position: ClientPosition?,
        now: Date
    ) throws -> (writer: String, pseudonym: String, listing: PostListing, comment: CommentRecord?) {
        switch kind {
        case .post:
            let listing = try readablePost(db, itemID, viewer: viewer, at: position, now: now)
            return (listing.post.authorId, listing.post.pseudonym, listing, nil)
        case .comment:
            guard let comment = try CommentRecord.fetchOne(db, key: itemID),
                !comment.hidden || comment.authorId == viewer,
                let listing = try post(db, comment.postId, viewer: viewer, now: now)
            else { throw kind.missing }
            try listing.pack.fence.check(position)
            return (comment.authorId, comment.pseudonym, listing, comment)
        }
    }

    func report(
        _ kind: PackReports.Kind, _ itemID: Int64, reporter: String, reason: PackReports.Reason, note: String?,
        threshold: Int, at position: ClientPosition?, now: Date
    ) async throws -> (report: ReportRecord, created: Bool) {
        try await write { db in
            let item = try Self.readableItem(db, kind, itemID, viewer: reporter, at: position, now: now)
            guard item.writer != reporter else { throw GeoError.ownItem(action: "report") }
            if let open = try ReportRecord.fetchOne(
                db,
                sql: """
                    SELECT * FROM reports WHERE kind = ? AND item_id = ? AND reporter_id = ? AND decided_at IS NULL
                    """, arguments: [kind.rawValue, itemID, reporter])
            {
                return (open, false)
            }
            var report = ReportRecord(
                id: nil, kind: kind.rawValue, itemId: itemID, packId: item.listing.pack.id ?? 0, writerId: item.writer,
                reporterId: reporter, reason: reason.rawValue, note: note, createdAt: now)
            try report.insert(db)
            let reporters =
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM reports WHERE kind = ? AND item_id = ? AND decided_at IS NULL",
                    arguments: [kind.rawValue, itemID]) ?? 0
            if PackReports.hides(reporters: reporters, threshold: threshold) {
                try Self.setHidden(db, kind, itemID, true)
            }
            return (report, true)
        }
    }

    /// Hides or shows an item; a comment's post counts only its shown comments. An item shown again stays hidden
    /// when its votes hid it (``VoteTally/hides``).
    static func setHidden(_ db: Database, _ kind: PackReports.Kind, _ itemID: Int64, _ hidden: Bool) throws {
        switch kind {
        case .post:
            try db.execute(
                sql: "UPDATE posts SET hidden = (? OR up_votes - down_votes <= ?) WHERE id = ?",
                arguments: [hidden, PackLimits.hidingScore, itemID])
        case .comment:
            guard let comment = try CommentRecord.fetchOne(db, key: itemID) else { return }
            let hidden = hidden || comment.tally.hides
            guard comment.hidden != hidden else { return }
            try db.execute(sql: "UPDATE comments SET hidden = ? WHERE id = ?", arguments: [hidden, itemID])
            try db.execute(
                sql: "UPDATE posts SET comment_count = comment_count + ? WHERE id = ?",
                arguments: [hidden ? -1 : 1, comment.postId])
        }
    }

    func reportQueue(order: PackReports.QueueOrder, after cursor: ReportQueueCursor?, limit: Int) async throws
        -> [(entry: ReportQueueEntry, item: ReportedPackItem)]
    {
        try await read { db in
            // Only items that still exist: a writer may have deleted theirs, a pack may have expired.
            let open = """
                SELECT kind, item_id, min(id) AS first_id, count(*) AS report_count FROM reports
                WHERE decided_at IS NULL AND ((kind = 'post' AND item_id IN (SELECT id FROM posts))
                    OR (kind = 'comment' AND item_id IN (SELECT id FROM comments)))
                GROUP BY kind, item_id
                """
            let rows: [Row]
            switch order {
            case .oldest:
                rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM (\(open)) WHERE first_id > ? ORDER BY first_id LIMIT ?",
                    arguments: [cursor?.first ?? 0, limit])
            case .most:
                let count = cursor?.count ?? Int.max
                rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM (\(open)) WHERE report_count < ? OR (report_count = ? AND first_id > ?)
                        ORDER BY report_count DESC, first_id LIMIT ?
                        """, arguments: [count, count, cursor?.first ?? 0, limit])
            }
            return try rows.compactMap { row in
                guard let kind = PackReports.Kind(rawValue: row["kind"]) else { return nil }
                let entry = ReportQueueEntry(
                    kind: kind, itemId: row["item_id"], first: row["first_id"], count: row["report_count"])
                return try Self.reportedItem(db, kind, entry.itemId).map { (entry, $0) }
            }
        }
    }

    /// An item as admins see it, with its open reports.
    static func reportedItem(_ db: Database, _ kind: PackReports.Kind, _ itemID: Int64) throws -> ReportedPackItem? {
        let reports = try ReportRecord.fetchAll(
            db, sql: "SELECT * FROM reports WHERE kind = ? AND item_id = ? AND decided_at IS NULL ORDER BY id",
            arguments: [kind.rawValue, itemID])
        let comment = kind == .comment ? try CommentRecord.fetchOne(db, key: itemID) : nil
        guard kind == .post || comment != nil,
            let post = try PostRecord.fetchOne(db, key: comment?.postId ?? itemID),
            let pack = try PackRecord.fetchOne(db, key: post.packId)
        else { return nil }
        return ReportedPackItem(post: post, comment: comment, in: pack, reports: reports)
    }

    func decideReports(
        on kind: PackReports.Kind, _ itemID: Int64, _ decision: PackReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<ReportedPackItem>?
    ) async throws -> ReportedPackItem {
        try await write(reporting: notices) { db in
            guard var item = try Self.reportedItem(db, kind, itemID), !item.reports.isEmpty else {
                throw GeoError.notFound("An open report of this \(kind.rawValue)")
            }
            try db.execute(
                sql: """
                    UPDATE reports SET decision = ?, decided_by = ?, decided_at = ?
                    WHERE kind = ? AND item_id = ? AND decided_at IS NULL
                    """, arguments: [decision.rawValue, admin, now, kind.rawValue, itemID])
            item.reports = item.reports.map {
                var report = $0
                (report.decision, report.decidedBy, report.decidedAt) = (decision.rawValue, admin, now)
                return report
            }
            switch (decision, kind) {
            case (.keep, _):
                try Self.setHidden(db, kind, itemID, false)
            case (.remove, .post):
                let post = try PostRecord.fetchOne(db, key: itemID)
                try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [itemID])
                try db.execute(
                    sql: """
                        UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - ?,
                            down_votes = down_votes - ? WHERE id = ?
                        """, arguments: [post?.upVotes ?? 0, post?.downVotes ?? 0, item.packId])
            case (.remove, .comment):
                let comment = try CommentRecord.fetchOne(db, key: itemID)
                try db.execute(sql: "DELETE FROM comments WHERE id = ?", arguments: [itemID])
                if let comment, !comment.hidden {
                    try db.execute(
                        sql: "UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?",
                        arguments: [comment.postId])
                }
            }
            return item
        }
    }

    func muteWriter(
        of kind: PackReports.Kind, _ itemID: Int64, muter: String, at position: ClientPosition?, now: Date
    ) async throws -> (packID: Int64, pseudonym: String) {
        try await write { db in
            let item = try Self.readableItem(db, kind, itemID, viewer: muter, at: position, now: now)
            guard item.writer != muter else { throw GeoError.ownItem(action: "mute") }
            let packID = item.listing.pack.id ?? 0
            try db.execute(
                sql: """
                    INSERT INTO pack_mutes (pack_id, muter_id, writer_id, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """, arguments: [packID, muter, item.writer, now])
            return (packID, item.pseudonym)
        }
    }
}
