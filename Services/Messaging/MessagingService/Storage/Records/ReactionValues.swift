import Foundation

/// One emoji's reactions on a message, as one reader sees them.
struct ReactionSummary: Sendable, Equatable {
    var emoji: String
    var count: Int
    /// The first ``Reactions/listedUsers`` who reacted, earliest first.
    var userIDs: [String]
    /// Whether the reader is among those who reacted.
    var mine: Bool
}

/// The outcome of adding or removing a reaction: whether anything changed, the message's reactions afterwards and
/// the members to tell.
struct ReactionChange: Sendable {
    var changed: Bool
    var reactions: [ReactionSummary]
    var members: [String]
}

/// A message's reaction rows, one per (emoji, user), as read for a page: folded into summaries for one reader.
struct ReactionRow: Sendable {
    var messageID: Int64
    var emoji: String
    var userID: String
    /// How many reacted with this emoji to this message (the rows are the first ``Reactions/listedUsers`` only).
    var count: Int
    var mine: Bool

    /// The summaries per message, emoji in the order their first reaction came (the rows' order).
    static func summaries(_ rows: [ReactionRow]) -> [Int64: [ReactionSummary]] {
        var byMessage: [Int64: [ReactionSummary]] = [:]
        for row in rows {
            var list = byMessage[row.messageID, default: []]
            if let index = list.firstIndex(where: { $0.emoji == row.emoji }) {
                list[index].userIDs.append(row.userID)
            } else {
                list.append(ReactionSummary(emoji: row.emoji, count: row.count, userIDs: [row.userID], mine: row.mine))
            }
            byMessage[row.messageID] = list
        }
        return byMessage
    }
}
