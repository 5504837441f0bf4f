import Foundation
import GRDB
import ServiceKit

/// Members' emoji reactions on messages.
extension SQLiteMessagingStore {
    func react(
        _ emoji: String, to messageID: Int64, in conversationID: String, by userID: String, adding: Bool, now: Date,
        notices: ChangeNotices<ReactionChange>?
    ) async throws -> ReactionChange {
        let change = try await write { db in
            _ = try Self.membership(db, conversationID, userID)
            let message = try Self.message(db, messageID, in: conversationID)
            guard !message.hidden || message.senderId == userID else { throw MessagingError.notFound("The message") }
            if adding {
                let emojis = try String.fetchAll(
                    db.cachedStatement(sql: "SELECT DISTINCT emoji FROM reactions WHERE message_id = ?"),
                    arguments: [messageID])
                guard emojis.contains(emoji) || emojis.count < Reactions.maximumDistinct else {
                    throw MessagingError.tooManyReactions
                }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO reactions (message_id, conversation_id, emoji, user_id, created_at)
                        VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                        """
                ).execute(arguments: [messageID, conversationID, emoji, userID, now])
            } else {
                try db.cachedStatement(
                    sql: "DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND user_id = ?"
                ).execute(arguments: [messageID, emoji, userID])
            }
            let changed = db.changesCount > 0
            let change = ReactionChange(
                changed: changed, reactions: try Self.reactions(db, of: [messageID], viewer: userID)[messageID] ?? [],
                members: try Self.members(db, conversationID).map(\.userId))
            if changed { try notices?.record(change, in: db) }
            return change
        }
        if change.changed { await notices?.committed(change) }
        return change
    }

    /// The reactions of some messages as `viewer` sees them: per emoji the count, whether the viewer is among them
    /// and the first ``Reactions/listedUsers`` who reacted; emoji in the order they were first given.
    static func reactions(_ db: Database, of messageIDs: [Int64], viewer: String) throws -> [Int64: [ReactionSummary]] {
        guard !messageIDs.isEmpty else { return [:] }
        // Ids are integers: listing them in the statement is safe, and one statement serves a page of any length.
        let ids = messageIDs.map(String.init).joined(separator: ",")
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT message_id, emoji, user_id, n, mine FROM (
                    SELECT message_id, emoji, user_id, COUNT(*) OVER e AS n, MAX(user_id = ?) OVER e AS mine,
                        MIN(created_at) OVER e AS first_at,
                        ROW_NUMBER() OVER (PARTITION BY message_id, emoji ORDER BY created_at, user_id) AS r
                    FROM reactions WHERE message_id IN (\(ids))
                    WINDOW e AS (PARTITION BY message_id, emoji)
                ) WHERE r <= ? ORDER BY message_id, first_at, emoji, r
                """, arguments: [viewer, Reactions.listedUsers])
        return ReactionRow.summaries(
            rows.map { ReactionRow(messageID: $0[0], emoji: $0[1], userID: $0[2], count: $0[3], mine: $0[4]) })
    }
}
