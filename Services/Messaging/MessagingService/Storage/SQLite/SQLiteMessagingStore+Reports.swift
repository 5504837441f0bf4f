import Foundation
import GRDB
import ServiceKit

extension MessageReportRecord: FetchableRecord, MutablePersistableRecord, SnakeCaseColumns {
    static let databaseTableName = "message_reports"

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Reports of messages and the admins' queue (see ``MessageReports``).
extension SQLiteMessagingStore {
    func reportMessage(
        _ messageID: Int64, in conversationID: String, by reporter: String, reason: MessageReports.Reason,
        note: String?, threshold: Int, now: Date
    ) async throws -> (report: MessageReportRecord, created: Bool) {
        try await write { db in
            _ = try Self.membership(db, conversationID, reporter)
            let message = try Self.message(db, messageID, in: conversationID)
            guard !message.hidden || message.senderId == reporter else {
                throw MessagingError.notFound("The message")
            }
            guard message.senderId != reporter else { throw MessagingError.ownMessage }
            if let open = try MessageReportRecord.fetchOne(
                db,
                sql: "SELECT * FROM message_reports WHERE message_id = ? AND reporter_id = ? AND decided_at IS NULL",
                arguments: [messageID, reporter])
            {
                return (open, false)
            }
            var report = MessageReportRecord(
                id: nil, messageId: messageID, conversationId: conversationID, senderId: message.senderId,
                reporterId: reporter, reason: reason.rawValue, note: note, createdAt: now)
            try report.insert(db)
            let reporters =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM message_reports WHERE message_id = ? AND decided_at IS NULL",
                    arguments: [messageID]) ?? 0
            if reporters >= threshold, !message.hidden {
                try db.execute(sql: "UPDATE messages SET hidden = 1 WHERE id = ?", arguments: [messageID])
            }
            return (report, true)
        }
    }

    func messageReportQueue(order: MessageReports.QueueOrder, after cursor: MessageReportCursor?, limit: Int)
        async throws -> [(cursor: MessageReportCursor, item: ReportedMessage)]
    {
        try await read { db in
            // Only messages that still exist: a sender may have deleted theirs.
            let open = """
                SELECT message_id, min(id) AS first_id, count(*) AS report_count FROM message_reports
                WHERE decided_at IS NULL AND message_id IN (SELECT id FROM messages)
                GROUP BY message_id
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
                let next = MessageReportCursor(
                    first: row["first_id"], count: order == .most ? row["report_count"] : nil)
                return try Self.reportedMessage(db, row["message_id"]).map { (next, $0) }
            }
        }
    }

    /// A message as admins see it, with its open reports.
    static func reportedMessage(_ db: Database, _ messageID: Int64) throws -> ReportedMessage? {
        guard
            var message = try MessageRecord.fetchOne(
                db,
                sql: """
                    SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                    WHERE m.id = ?
                    """, arguments: [messageID]),
            let kind = try String.fetchOne(
                db, sql: "SELECT kind FROM conversations WHERE id = ?", arguments: [message.conversationId])
        else { return nil }
        message.images = try images(db, of: [messageID])[messageID] ?? []
        let reports = try MessageReportRecord.fetchAll(
            db, sql: "SELECT * FROM message_reports WHERE message_id = ? AND decided_at IS NULL ORDER BY id",
            arguments: [messageID])
        return ReportedMessage(message: message, conversationKind: kind, reports: reports)
    }

    func decideMessageReports(
        on messageID: Int64, _ decision: MessageReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<DeletedMessage>?
    ) async throws -> (item: ReportedMessage, members: [String]) {
        let decided = try await write { db in
            guard var item = try Self.reportedMessage(db, messageID), !item.reports.isEmpty else {
                throw MessagingError.notFound("An open report of this message")
            }
            try db.execute(
                sql: """
                    UPDATE message_reports SET decision = ?, decided_by = ?, decided_at = ?
                    WHERE message_id = ? AND decided_at IS NULL
                    """, arguments: [decision.rawValue, admin, now, messageID])
            item.reports = item.reports.map {
                var report = $0
                (report.decision, report.decidedBy, report.decidedAt) = (decision.rawValue, admin, now)
                return report
            }
            let members = try Self.members(db, item.message.conversationId).map(\.userId)
            switch decision {
            case .keep: try db.execute(sql: "UPDATE messages SET hidden = 0 WHERE id = ?", arguments: [messageID])
            case .remove:
                try Self.remove(db, item.message)
                try notices?.record(DeletedMessage(item.message, members: members), in: db)
            }
            return (item: item, members: members)
        }
        if decision == .remove {
            await notices?.committed(DeletedMessage(decided.item.message, members: decided.members))
        }
        return decided
    }
}
