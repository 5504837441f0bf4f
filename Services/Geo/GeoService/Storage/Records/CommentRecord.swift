import Foundation

/// A row of `comments`.
struct CommentRecord: Codable, Sendable {
    var id: Int64?
    var postId: Int64
    var authorId: String
    var pseudonym: String
    var body: String
    var createdAt: Date
    /// Reported by enough people: gone for everyone but its writer until an admin decides.
    var hidden: Bool = false
}
