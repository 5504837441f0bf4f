import Foundation

/// A row of `reports`: one person's report of a post or comment. `writerId` and `reporterId` never leave the
/// service except to admins (the writer's, in the queue). Open while `decidedAt` is `nil`.
struct ReportRecord: Codable, Sendable, Equatable {
    var id: Int64?
    /// `post` or `comment` (``PackReports/Kind``).
    var kind: String
    var itemId: Int64
    var packId: Int64
    var writerId: String
    var reporterId: String
    var reason: String
    var note: String?
    var createdAt: Date
    /// `keep` or `remove` (``PackReports/Decision``) once an admin decided.
    var decision: String?
    var decidedBy: String?
    var decidedAt: Date?
}

/// A post or comment as the report queue shows it to admins: what was written, by whom, and its open reports.
struct ReportedPackItem: Sendable {
    var kind: PackReports.Kind
    var itemId: Int64
    var packId: Int64
    var packName: String
    /// The writer's real account: for admins only.
    var writerId: String
    var pseudonym: String
    /// The post's title, or for a comment the title of the post it is on.
    var title: String
    var body: String
    var hidden: Bool
    var createdAt: Date
    /// The open reports, oldest first (all of them after a decision, as they were decided).
    var reports: [ReportRecord]

    /// A post (`comment` nil) or a comment on it, in its pack.
    init(post: PostRecord, comment: CommentRecord?, in pack: PackRecord, reports: [ReportRecord]) {
        kind = comment == nil ? .post : .comment
        itemId = comment?.id ?? post.id ?? 0
        packId = post.packId
        packName = pack.name
        writerId = comment?.authorId ?? post.authorId
        pseudonym = comment?.pseudonym ?? post.pseudonym
        title = post.title
        body = comment?.body ?? post.body
        hidden = comment?.hidden ?? post.hidden
        createdAt = comment?.createdAt ?? post.createdAt
        self.reports = reports
    }
}

/// Where the report queue continues: after the item whose first open report is `first` (and, most-reported first,
/// that had `count` reports).
struct ReportQueueCursor: Codable, Sendable, Equatable {
    var first: Int64
    var count: Int?
}

/// One line of the queue before its item is read: the item and its open reports' first id and number.
struct ReportQueueEntry: Sendable, Equatable {
    var kind: PackReports.Kind
    var itemId: Int64
    var first: Int64
    var count: Int
}
