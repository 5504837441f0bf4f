import Foundation

/// A row of `comments`.
struct CommentRecord: Codable, Sendable {
    var id: Int64?
    var postId: Int64
    var authorId: String
    var pseudonym: String
    var body: String
    var createdAt: Date
    /// Reported by enough people (gone for everyone but its writer until an admin decides), or voted down to
    /// ``PackLimits/hidingScore`` (for good).
    var hidden: Bool = false
    var upVotes: Int = 0
    var downVotes: Int = 0

    var tally: VoteTally {
        get { VoteTally(up: upVotes, down: downVotes) }
        set { (upVotes, downVotes) = (newValue.up, newValue.down) }
    }
}
