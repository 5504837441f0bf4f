import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Reporting a pack post or comment, and muting its writer. Both act on what the caller may read (404 as for
/// reading it, the `Geo-Position` of a locked pack included); neither works on one's own writing (403 `own_item`).
/// No answer names the writer: a mute answers the pseudonym the caller already sees.
struct PackReportsController {
    let database: any GeoStore
    let clock: WallClock
    /// Distinct reporters that hide an item (``GeoConfiguration/reportThreshold``).
    let threshold: Int

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(GeoPaths.posts + "/:post/reports")) { request, context in
            try await report(.post, request: request, context: context)
        }
        router.post(RouterPath(GeoPaths.comments + "/:comment/reports")) { request, context in
            try await report(.comment, request: request, context: context)
        }
        router.put(RouterPath(GeoPaths.posts + "/:post/mute-writer")) { request, context in
            try await mute(.post, request: request, context: context)
        }
        router.put(RouterPath(GeoPaths.comments + "/:comment/mute-writer")) { request, context in
            try await mute(.comment, request: request, context: context)
        }
    }

    struct ReportRequest: Decodable {
        var reason: String
        var note: String?
    }

    /// My report of what someone wrote: 201 when filed, 200 with my open report when I already reported it.
    func report(_ kind: PackReports.Kind, request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<ReportView>
    {
        let itemID = try context.parameters.id(kind.rawValue, kind == .post ? "The post" : "The comment")
        let input = try await request.decode(as: ReportRequest.self, context: context)
        let reason = try ContentReports.reason(input.reason)
        let note = try Validate.optionalText(
            input.note.map(AnonymousText.body), field: "note", max: ContentReports.noteLength)
        let (report, created) = try await database.report(
            kind, itemID, reporter: context.user.userID, reason: reason, note: note, threshold: threshold,
            at: try request.clientPosition(), now: clock.now)
        return EditedResponse(status: created ? .created : .ok, response: ReportView(report))
    }

    /// Mutes the writer of a post or comment in its pack, for me only, now and later.
    func mute(_ kind: PackReports.Kind, request: Request, context: AuthenticatedContext) async throws -> MuteView {
        let itemID = try context.parameters.id(kind.rawValue, kind == .post ? "The post" : "The comment")
        let (packID, pseudonym) = try await database.muteWriter(
            of: kind, itemID, muter: context.user.userID, at: try request.clientPosition(), now: clock.now)
        return MuteView(packId: String(packID), pseudonym: pseudonym, muted: true)
    }
}

/// My report as I see it (never whose writing it is).
struct ReportView: ResponseEncodable, Sendable {
    var id: String
    /// `post` or `comment`.
    var kind: String
    var itemId: String
    var reason: String
    var note: String?
    var createdAt: Date

    init(_ report: ReportRecord) {
        id = String(report.id ?? 0)
        kind = report.kind
        itemId = String(report.itemId)
        reason = report.reason
        note = report.note
        createdAt = report.createdAt
    }
}

/// A muted writer, as the muter knows them: their pseudonym in that pack.
struct MuteView: ResponseEncodable, Sendable {
    var packId: String
    var pseudonym: String
    var muted: Bool
}
