import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// One emoji's reactions on a message: how many, whether I am among them, and the first who reacted.
struct ReactionView: Codable, Sendable {
    var emoji: String
    var count: Int
    var me: Bool
    /// The first 20 members who reacted, earliest first.
    var userIds: [String]

    init(_ summary: ReactionSummary) {
        emoji = summary.emoji
        count = summary.count
        me = summary.mine
        userIds = summary.userIDs
    }
}

/// A message's reactions after a change.
struct ReactionsView: ResponseEncodable, Codable, Sendable {
    var conversationId: String
    var messageId: Int64
    var reactions: [ReactionView]
}
