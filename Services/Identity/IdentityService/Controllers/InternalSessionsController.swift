import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The ended-session feed the gateway and the services long-poll (service credential only).
struct InternalSessionsController {
    let store: any IdentityStore
    let bell: ChangeBell
    let clock: WallClock

    /// Longest a poll waits for a revocation; the feed asks for 20 s and retries at once.
    static let maximumWait = 25
    /// Most entries in one answer after a sequence; the feed asks again at once for the rest.
    static let pageSize = 1000

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.get(RouterPath(IdentityPaths.internalSessionRevocations), use: revocations)
    }

    /// Without `after`: every revocation still in force. With it: those after that sequence, waiting up to
    /// `wait` seconds for the next one when there are none yet.
    @Sendable func revocations(_ request: Request, context: ServiceRequestContext) async throws
        -> Response
    {
        let query = try LongPollQuery(request, maximumWait: Self.maximumWait)
        let page = try await bell.answer(query) {
            try await store.revocations(after: query.after, now: clock.now, limit: Self.pageSize)
        } isEmpty: {
            $0.items.isEmpty
        }
        return try PlatformJSON.encoder.encodeResponse(page)
    }
}
