import Foundation
import Hummingbird
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The ended-session feed the gateway and the services long-poll (service credential only).
struct InternalSessionsController {
    let database: IdentityDatabase
    let bell: RevocationBell
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
        let after = try request.uri.queryParameters.get("after").map { text -> Int64 in
            guard let value = Int64(text), value >= 0 else {
                throw Problem.invalidField("after", "must be a sequence number, 0 or more.")
            }
            return value
        }
        let wait =
            try request.uri.queryParameters.get("wait").map { text -> Int in
                guard let value = Int(text), (0...Self.maximumWait).contains(value) else {
                    throw Problem.invalidField("wait", "must be 0 to \(Self.maximumWait) seconds.")
                }
                return value
            } ?? 0
        let generation = bell.generation
        let page = try await database.revocations(after: after, now: clock.now, limit: Self.pageSize)
        guard after != nil, page.items.isEmpty, wait > 0 else { return try PlatformJSON.encoder.encodeResponse(page) }
        // Graceful shutdown ends the wait at once rather than holding the server open for a whole poll.
        await cancelWhenGracefulShutdown {
            await bell.wait(after: generation, timeout: .seconds(wait))
        }
        return try PlatformJSON.encoder.encodeResponse(
            try await database.revocations(after: after, now: clock.now, limit: Self.pageSize))
    }
}
