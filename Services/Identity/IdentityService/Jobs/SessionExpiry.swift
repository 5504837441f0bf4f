import Foundation
import PlatformKit
import ServiceKit

/// Ends the sessions past their ``SessionLifetime`` that nobody presented (reported as other ended sessions: their
/// devices and live streams are dropped), deletes sessions a week after they ended, and deletes expired OpenID
/// nonces, so neither table grows for ever.
struct SessionExpiry: Sendable {
    let store: any IdentityStore
    let lifetime: SessionLifetime
    let endedSessions: any EndedSessionSink
    /// How long an ended session's row is kept (nothing reads it; a week leaves it to look at after an incident).
    static let endedRetention: TimeInterval = 7 * 86_400
    /// Sessions per transaction, so a backlog never holds the writer long.
    static let batch = 100

    /// Ends, deletes and prunes what is due at `now`.
    func run(now: Date) async throws {
        var ended: [String: [String]]
        repeat {
            ended = try await store.endExpiredSessions(lifetime: lifetime, now: now, limit: Self.batch)
            for (userID, sessionIDs) in ended {
                await endedSessions.sessionsEnded(userID: userID, sessionIDs: sessionIDs)
            }
        } while ended.values.joined().count == Self.batch
        var deleted: Int
        repeat {
            deleted = try await store.deleteEndedSessions(
                endedBefore: now.addingTimeInterval(-Self.endedRetention), limit: Self.batch)
        } while deleted == Self.batch
        _ = try await store.pruneNonces(now: now)
    }
}
