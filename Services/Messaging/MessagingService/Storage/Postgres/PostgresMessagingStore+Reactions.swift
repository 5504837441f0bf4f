import Foundation
import PostgresNIO
import ServiceKit

/// Members' emoji reactions on messages.
extension PostgresMessagingStore {
    func react(
        _ emoji: String, to messageID: Int64, in conversationID: String, by userID: String, adding: Bool, now: Date,
        notices: ChangeNotices<ReactionChange>?
    ) async throws -> ReactionChange {
        let change = try await write { session in
            // The conversation's lock makes the distinct-emoji count and the insert one step, as SQLite's writer does.
            _ = try await Self.membership(session, conversationID, userID, lock: true)
            let message = try await Self.message(session, messageID, in: conversationID)
            guard !message.hidden || message.senderId == userID else { throw MessagingError.notFound("The message") }
            let changed: Bool
            if adding {
                let emojis = try await session.rows(
                    "SELECT DISTINCT emoji FROM reactions WHERE message_id = \(messageID)"
                ).map { try $0.decode(String.self) }
                guard emojis.contains(emoji) || emojis.count < Reactions.maximumDistinct else {
                    throw MessagingError.tooManyReactions
                }
                changed =
                    try await session.value(
                        """
                        INSERT INTO reactions (message_id, conversation_id, emoji, user_id, created_at)
                        VALUES (\(messageID), \(conversationID), \(emoji), \(userID), \(now.storedPrecision))
                        ON CONFLICT DO NOTHING RETURNING true
                        """, as: Bool.self) ?? false
            } else {
                changed =
                    try await session.value(
                        """
                        DELETE FROM reactions WHERE message_id = \(messageID) AND emoji = \(emoji) AND user_id = \(userID)
                        RETURNING true
                        """, as: Bool.self) ?? false
            }
            let change = ReactionChange(
                changed: changed,
                reactions: try await Self.reactions(session, of: [messageID], viewer: userID)[messageID] ?? [],
                members: try await Self.members(session, conversationID).map(\.userId))
            if changed { try await notices?.record(change, in: session) }
            return change
        }
        if change.changed { await notices?.committed(change) }
        return change
    }

    /// The reactions of some messages as `viewer` sees them (SQLite's `reactions(_:of:viewer:)`).
    static func reactions(_ session: PostgresSession, of messageIDs: [Int64], viewer: String) async throws
        -> [Int64: [ReactionSummary]]
    {
        guard !messageIDs.isEmpty else { return [:] }
        let rows = try await session.rows(
            """
            SELECT message_id, emoji, user_id, n, mine FROM (
                SELECT message_id, emoji, user_id, COUNT(*) OVER e AS n, bool_or(user_id = \(viewer)) OVER e AS mine,
                    MIN(created_at) OVER e AS first_at,
                    ROW_NUMBER() OVER (PARTITION BY message_id, emoji ORDER BY created_at, user_id) AS r
                FROM reactions WHERE message_id = ANY(\(messageIDs))
                WINDOW e AS (PARTITION BY message_id, emoji)
            ) AS listed WHERE r <= \(Reactions.listedUsers) ORDER BY message_id, first_at, emoji, r
            """)
        return ReactionRow.summaries(
            try rows.map { row in
                let (messageID, emoji, userID, count, mine) = try row.decode((Int64, String, String, Int64, Bool).self)
                return ReactionRow(messageID: messageID, emoji: emoji, userID: userID, count: Int(count), mine: mine)
            })
    }
}
