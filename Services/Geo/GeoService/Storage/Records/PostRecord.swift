import Foundation

/// A row of `posts`. `authorId` is for checks only and never leaves the service.
struct PostRecord: Codable, Sendable {
    var id: Int64?
    var packId: Int64
    var authorId: String
    var pseudonym: String
    var title: String
    var body: String
    var tags: String
    var upVotes: Int
    var downVotes: Int
    var commentCount: Int
    var hot: Double
    var hidden: Bool
    var createdAt: Date

    var score: Int { upVotes - downVotes }

    var tally: VoteTally {
        get { VoteTally(up: upVotes, down: downVotes) }
        set { (upVotes, downVotes) = (newValue.up, newValue.down) }
    }
}
