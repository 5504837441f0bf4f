import Foundation
import PostgresNIO
import ServiceKit

/// Reports of messages and the admins' queue (see ``MessageReports``). A report locks its conversation's row
/// first, as every writer to a conversation does, so the count that hides a message sees every report before it.
extension PostgresMessagingStore {
    static let reportColumns = """
        r.id, r.message_id, r.conversation_id, r.sender_id, r.reporter_id, r.reason, r.note, r.created_at, \
        r.decision, r.decided_by, r.decided_at
        """

    static func report(_ row: PostgresRow) throws -> MessageReportRecord {
        let (id, messageID, conversationID, sender, reporter, reason, note, createdAt, decision, decidedBy, decidedAt) =
            try row.decode((Int64, Int64, String, String, String, String, String?, Date, String?, String?, Date?).self)
        return MessageReportRecord(
            id: id, messageId: messageID, conversationId: conversationID, senderId: sender, reporterId: reporter,
            reason: reason, note: note, createdAt: createdAt, decision: decision, decidedBy: decidedBy,
            decidedAt: decidedAt)
    }

    func reportMessage(
        _ messageID: Int64, in conversationID: String, by reporter: String, reason: MessageReports.Reason,
        note: String?, threshold: Int, now: Date
    ) async throws -> (report: MessageReportRecord, created: Bool) {
        try await write { session in
            _ = try await Self.membership(session, conversationID, reporter, lock: true)
            let message = try await Self.message(session, messageID, in: conversationID)
            guard !message.hidden || message.senderId == reporter else {
                throw MessagingError.notFound("The message")
            }
            guard message.senderId != reporter else { throw MessagingError.ownMessage }
            if let open = try await session.first(
                """
                SELECT \(unescaped: Self.reportColumns) FROM message_reports r
                WHERE r.message_id = \(messageID) AND r.reporter_id = \(reporter) AND r.decided_at IS NULL
                """, Self.report)
            {
                return (open, false)
            }
            var report = MessageReportRecord(
                id: nil, messageId: messageID, conversationId: conversationID, senderId: message.senderId,
                reporterId: reporter, reason: reason.rawValue, note: note, createdAt: now.storedPrecision)
            report.id = try await session.value(
                """
                INSERT INTO message_reports (message_id, conversation_id, sender_id, reporter_id, reason, note,
                    created_at)
                VALUES (\(messageID), \(conversationID), \(message.senderId), \(reporter), \(report.reason), \(note),
                    \(report.createdAt))
                RETURNING id
                """, as: Int64.self)
            let reporters =
                try await session.value(
                    "SELECT count(*) FROM message_reports WHERE message_id = \(messageID) AND decided_at IS NULL",
                    as: Int.self) ?? 0
            if reporters >= threshold, !message.hidden {
                try await session.execute("UPDATE messages SET hidden = true WHERE id = \(messageID)")
            }
            return (report, true)
        }
    }

    func messageReportQueue(order: MessageReports.QueueOrder, after cursor: MessageReportCursor?, limit: Int)
        async throws -> [(cursor: MessageReportCursor, item: ReportedMessage)]
    {
        try await snapshot { session in
            // Only messages that still exist: a sender may have deleted theirs.
            let first = cursor?.first ?? 0
            let rows: [PostgresRow]
            switch order {
            case .oldest:
                rows = try await session.rows(
                    """
                    SELECT message_id, min(id) AS first_id, count(*) AS report_count FROM message_reports
                    WHERE decided_at IS NULL AND message_id IN (SELECT id FROM messages)
                    GROUP BY message_id HAVING min(id) > \(first)
                    ORDER BY first_id LIMIT \(limit)
                    """)
            case .most:
                let count = cursor?.count ?? Int.max
                rows = try await session.rows(
                    """
                    SELECT message_id, min(id) AS first_id, count(*) AS report_count FROM message_reports
                    WHERE decided_at IS NULL AND message_id IN (SELECT id FROM messages)
                    GROUP BY message_id HAVING count(*) < \(count) OR (count(*) = \(count) AND min(id) > \(first))
                    ORDER BY report_count DESC, first_id LIMIT \(limit)
                    """)
            }
            var found: [(cursor: MessageReportCursor, item: ReportedMessage)] = []
            for row in rows {
                let (messageID, firstID, reports) = try row.decode((Int64, Int64, Int).self)
                guard let item = try await Self.reportedMessage(session, messageID) else { continue }
                found.append((MessageReportCursor(first: firstID, count: order == .most ? reports : nil), item))
            }
            return found
        }
    }

    /// A message as admins see it, with its open reports.
    static func reportedMessage(_ session: PostgresSession, _ messageID: Int64) async throws -> ReportedMessage? {
        guard
            var message = try await session.first(
                """
                SELECT \(unescaped: messageColumns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                WHERE m.id = \(messageID)
                """, Self.message),
            let kind = try await session.value(
                "SELECT kind FROM conversations WHERE id = \(message.conversationId)", as: String.self)
        else { return nil }
        message.images = try await images(session, of: [messageID])[messageID] ?? []
        let reports = try await session.rows(
            """
            SELECT \(unescaped: reportColumns) FROM message_reports r
            WHERE r.message_id = \(messageID) AND r.decided_at IS NULL ORDER BY r.id
            """
        ).map(Self.report)
        return ReportedMessage(message: message, conversationKind: kind, reports: reports)
    }

    func decideMessageReports(
        on messageID: Int64, _ decision: MessageReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<DeletedMessage>?
    ) async throws -> (item: ReportedMessage, members: [String]) {
        let decided = try await write { session in
            // The conversation's lock first, as every writer to it takes it.
            if let conversationID = try await session.value(
                "SELECT conversation_id FROM message_reports WHERE message_id = \(messageID) LIMIT 1", as: String.self)
            {
                _ = try await session.execute("SELECT 1 FROM conversations WHERE id = \(conversationID) FOR UPDATE")
            }
            guard var item = try await Self.reportedMessage(session, messageID), !item.reports.isEmpty else {
                throw MessagingError.notFound("An open report of this message")
            }
            let decidedAt = now.storedPrecision
            try await session.execute(
                """
                UPDATE message_reports SET decision = \(decision.rawValue), decided_by = \(admin),
                    decided_at = \(decidedAt)
                WHERE message_id = \(messageID) AND decided_at IS NULL
                """)
            item.reports = item.reports.map {
                var report = $0
                (report.decision, report.decidedBy, report.decidedAt) = (decision.rawValue, admin, decidedAt)
                return report
            }
            let members = try await Self.members(session, item.message.conversationId).map(\.userId)
            switch decision {
            case .keep: try await session.execute("UPDATE messages SET hidden = false WHERE id = \(messageID)")
            case .remove:
                try await Self.remove(session, item.message)
                try await notices?.record(DeletedMessage(item.message, members: members), in: session)
            }
            return (item: item, members: members)
        }
        if decision == .remove {
            await notices?.committed(DeletedMessage(decided.item.message, members: decided.members))
        }
        return decided
    }
}
