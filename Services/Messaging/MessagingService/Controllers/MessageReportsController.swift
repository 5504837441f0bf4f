import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

extension MessagingPaths {
    /// The admins' queue of reported messages; `/{message}/{keep|remove}` decides.
    static let reports = prefix + "/reports"
}

/// Reporting a message (members, of someone else's message), and the admins' queue of reported messages with the
/// sender's real account. Anyone but an admin is answered 403 `admin_only` on the queue. A removal tells the sender
/// through the notices, and the members' apps through the usual deleted event.
struct MessageReportsController {
    let store: any MessagingStore
    let events: MessageEvents
    let clock: WallClock
    /// Distinct reporters that hide a message (``MessagingConfiguration/reportThreshold``).
    let threshold: Int

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(
            RouterPath(MessagingPaths.conversations + "/:conversation/messages/:message/reports"), use: report)
        router.get(RouterPath(MessagingPaths.reports), use: list)
        router.post(RouterPath(MessagingPaths.reports + "/:message/keep")) { _, context in
            try await decide(.keep, context: context)
        }
        router.post(RouterPath(MessagingPaths.reports + "/:message/remove")) { _, context in
            try await decide(.remove, context: context)
        }
    }

    struct ReportRequest: Decodable {
        var reason: String
        var note: String?
    }

    /// My report of a message: 201 when filed, 200 with my open report when I already reported it.
    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<MessageReportView>
    {
        let conversationID = try context.parameters.require("conversation")
        let messageID = try context.parameters.id("message", "The message")
        let input = try await request.decode(as: ReportRequest.self, context: context)
        let reason = try ContentReports.reason(input.reason)
        let note = try Validate.optionalText(input.note, field: "note", max: ContentReports.noteLength)
        let (report, created) = try await store.reportMessage(
            messageID, in: conversationID, by: context.user.userID, reason: reason, note: note, threshold: threshold,
            now: clock.now)
        return EditedResponse(status: created ? .created : .ok, response: MessageReportView(report))
    }

    /// `sort=oldest` (default: the longest-waiting first) or `most` (most reporters first), `limit`, `cursor`.
    /// The query is read before the caller's role, so a malformed one is a 400 whoever sends it.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<ReportedMessageView> {
        let order = try ContentReports.queueOrder(request.uri.queryParameters["sort"].map(String.init))
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: MessageReportCursor.self)
        guard context.user.isAdmin else { throw MessagingError.adminOnly }
        let rows = try await store.messageReportQueue(order: order, after: cursor, limit: page.limit + 1)
        let cursors = Dictionary(rows.map { ($0.item.message.id, $0.cursor) }, uniquingKeysWith: { first, _ in first })
        return Page(fetched: rows.map { ReportedMessageView($0.item) }, limit: page.limit) { cursors[$0.message.id] }
    }

    /// Keeps (the message shows again, the reports are closed) or removes (deleted, its sender told).
    func decide(_ decision: MessageReports.Decision, context: AuthenticatedContext) async throws
        -> MessageDecisionView
    {
        guard context.user.isAdmin else { throw MessagingError.adminOnly }
        let messageID = try context.parameters.id("message", "The message")
        let now = clock.now
        let (item, _) = try await store.decideMessageReports(
            on: messageID, decision, by: context.user.userID, now: now, notices: events.removal())
        let conversationID = item.message.conversationId
        return MessageDecisionView(
            messageId: messageID, conversationId: conversationID, decision: decision.rawValue,
            decidedBy: context.user.userID, decidedAt: now, reportCount: item.reports.count)
    }
}

/// My report as I see it.
struct MessageReportView: ResponseEncodable, Sendable {
    var id: Int64
    var messageId: Int64
    var conversationId: String
    var reason: String
    var note: String?
    var createdAt: Date

    init(_ report: MessageReportRecord) {
        id = report.id ?? 0
        messageId = report.messageId
        conversationId = report.conversationId
        reason = report.reason
        note = report.note
        createdAt = report.createdAt
    }
}

/// A reported message as admins see it: the message (with its sender's account) and the open reports.
struct ReportedMessageView: ResponseEncodable, Sendable {
    var message: MessageView
    /// `direct` or `group`.
    var conversationKind: String
    var reportCount: Int
    /// How many open reports give each reason.
    var reasons: [String: Int]
    var reports: [ContentReports.OpenReport]

    init(_ item: ReportedMessage) {
        message = MessageView(item.message)
        conversationKind = item.conversationKind
        reportCount = item.reports.count
        reports = item.reports.map {
            ContentReports.OpenReport(reason: $0.reason, note: $0.note, createdAt: $0.createdAt)
        }
        reasons = ContentReports.reasonCounts(reports)
    }
}

/// An admin's decision, as recorded.
struct MessageDecisionView: ResponseEncodable, Sendable {
    var messageId: Int64
    var conversationId: String
    /// `keep` or `remove`.
    var decision: String
    var decidedBy: String
    var decidedAt: Date
    /// The open reports the decision closed.
    var reportCount: Int
}
