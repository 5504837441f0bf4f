import Foundation

/// A row of `message_reports`: one member's report of a message. `senderId` and `reporterId` never leave the
/// service except to admins (the sender's, in the queue). Open while `decidedAt` is `nil`.
struct MessageReportRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var messageId: Int64
    var conversationId: String
    var senderId: String
    var reporterId: String
    var reason: String
    var note: String?
    var createdAt: Date
    /// `keep` or `remove` (``MessageReports/Decision``) once an admin decided.
    var decision: String?
    var decidedBy: String?
    var decidedAt: Date?
}

/// A reported message as the admins' queue shows it: the message (its sender's real account) and its open reports.
struct ReportedMessage: Sendable {
    var message: MessageRecord
    /// `direct` or `group`.
    var conversationKind: String
    var reports: [MessageReportRecord]
}

/// Where the message report queue continues: after the message whose first open report is `first` (and, most
/// reported first, that had `count` reports).
struct MessageReportCursor: Codable, Sendable, Equatable {
    var first: Int64
    var count: Int?
}
