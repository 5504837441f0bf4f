import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

extension GeoPaths {
    /// The admins' queue of reported pack posts and comments; `/{posts|comments}/{id}/{keep|remove}` decides.
    static let reports = prefix + "/reports"
}

/// The admins' report queue: items with open reports, with the writer's real account, and the decision on each.
/// Anyone else is answered 403 `admin_only`. A removal tells the writer through the notices.
struct PackModerationController {
    let database: any GeoStore
    let clock: WallClock
    let notices: any NoticeSink

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.reports), use: list)
        router.post(RouterPath(GeoPaths.reports + "/:kind/:item/keep")) { request, context in
            try await decide(.keep, context: context)
        }
        router.post(RouterPath(GeoPaths.reports + "/:kind/:item/remove")) { request, context in
            try await decide(.remove, context: context)
        }
    }

    /// `sort=oldest` (default: the longest-waiting first) or `most` (most reporters first), `limit`, `cursor`.
    /// The query is read before the caller's role, so a malformed one is a 400 whoever sends it.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<ReportedItemView> {
        let order = try ContentReports.queueOrder(request.uri.queryParameters["sort"].map(String.init))
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: ReportQueueCursor.self)
        guard context.user.isAdmin else { throw GeoError.adminOnly }
        let rows = try await database.reportQueue(order: order, after: cursor, limit: page.limit + 1)
        let cursors = Dictionary(
            rows.map {
                (
                    "\($0.entry.kind.rawValue):\($0.entry.itemId)",
                    ReportQueueCursor(first: $0.entry.first, count: order == .most ? $0.entry.count : nil)
                )
            }, uniquingKeysWith: { first, _ in first })
        return Page(fetched: rows.map { ReportedItemView($0.item) }, limit: page.limit) {
            cursors["\($0.kind):\($0.id)"]
        }
    }

    /// Keeps (the item shows again, the reports are closed) or removes (the item is deleted, its writer told).
    func decide(_ decision: PackReports.Decision, context: AuthenticatedContext) async throws -> DecisionView {
        guard context.user.isAdmin else { throw GeoError.adminOnly }
        let kind: PackReports.Kind
        switch context.parameters.get("kind") {
        case "posts": kind = .post
        case "comments": kind = .comment
        default: throw Problem.notFound("The reported item")
        }
        let itemID = try context.parameters.id("item", kind == .post ? "The post" : "The comment")
        let now = clock.now
        let item = try await database.decideReports(
            on: kind, itemID, decision, by: context.user.userID, now: now,
            notices: ChangeNotices(sink: notices) { item in
                guard decision == .remove else { return [] }
                return [
                    Notice(
                        recipients: [item.writerId], kind: "geo.\(kind.rawValue)_removed",
                        text: kind == .post
                            ? "Your post \"\(item.title)\" in \(item.packName) was removed after reports."
                            : "Your comment on \"\(item.title)\" in \(item.packName) was removed after reports.",
                        link: GeoPaths.packs + "/\(item.packId)",
                        idempotencyKey: "\(kind.rawValue)-removed:\(itemID)")
                ]
            })
        return DecisionView(
            kind: kind.rawValue, itemId: String(itemID), decision: decision.rawValue, decidedBy: context.user.userID,
            decidedAt: now, reportCount: item.reports.count)
    }
}

/// A reported item as admins see it: what was written, the writer's real account, the open reports.
struct ReportedItemView: ResponseEncodable, Sendable {
    /// `post` or `comment`.
    var kind: String
    var id: String
    var packId: String
    var packName: String
    /// The writer's account id (admins only).
    var writerId: String
    var pseudonym: String
    /// The post's title, or the title of the post a comment is on.
    var title: String
    var body: String
    /// Hidden from everyone but its writer (enough reports, or votes for a post).
    var hidden: Bool
    var createdAt: Date
    var reportCount: Int
    /// How many open reports give each reason.
    var reasons: [String: Int]
    var reports: [ContentReports.OpenReport]

    init(_ item: ReportedPackItem) {
        kind = item.kind.rawValue
        id = String(item.itemId)
        packId = String(item.packId)
        packName = item.packName
        writerId = item.writerId
        pseudonym = item.pseudonym
        title = item.title
        body = item.body
        hidden = item.hidden
        createdAt = item.createdAt
        reportCount = item.reports.count
        reports = item.reports.map {
            ContentReports.OpenReport(reason: $0.reason, note: $0.note, createdAt: $0.createdAt)
        }
        reasons = ContentReports.reasonCounts(reports)
    }
}

/// An admin's decision, as recorded.
struct DecisionView: ResponseEncodable, Sendable {
    var kind: String
    var itemId: String
    /// `keep` or `remove`.
    var decision: String
    var decidedBy: String
    var decidedAt: Date
    /// The open reports the decision closed.
    var reportCount: Int
}
