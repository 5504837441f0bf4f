import Foundation
import Logging
import PlatformKit
import ServiceKit

/// Where identity reports sessions that ended (sign-out, revocation, password change or reset, a reused
/// refresh token), so the notifications service stops pushing to their devices.
public protocol EndedSessionSink: Sendable {
    /// Reports the ended sessions; never fails the caller's request.
    func sessionsEnded(userID: String, sessionIDs: [String]) async
}

/// Posts ended sessions to the notifications service; a failure is retried once, then logged (the device keeps
/// its token until APNs or the user removes it).
public struct NotificationsEndedSessionSink: EndedSessionSink {
    private let client: InternalClient
    private let logger: Logger

    /// A sink posting to the notifications service at `address` (a test stack may start it after identity).
    public init(address: ServiceAddress, token: String, logger: Logger) {
        self.client = InternalClient(service: .notifications, address: address, token: token)
        self.logger = logger
    }

    public func sessionsEnded(userID: String, sessionIDs: [String]) async {
        struct Body: Encodable, Sendable {
            var userId: String
            var sessionIds: [String]
        }
        guard !sessionIDs.isEmpty else { return }
        // Forgetting a session's devices twice does no harm, so a failed post is retried.
        if let error = await client.deliver(
            NotificationsPaths.internalEndedSessions, body: Body(userId: userID, sessionIds: sessionIDs))
        {
            logger.warning("ended sessions not reported", metadata: ["user": "\(userID)", "error": "\(error)"])
        }
    }
}

/// Without a notifications service: the ended sessions are only logged.
struct LoggedEndedSessionSink: EndedSessionSink {
    let logger: Logger

    func sessionsEnded(userID: String, sessionIDs: [String]) async {
        guard !sessionIDs.isEmpty else { return }
        logger.debug("sessions ended", metadata: ["user": "\(userID)", "sessions": "\(sessionIDs.count)"])
    }
}

/// Makes an ended session's tokens stop working at once: this replica's verifier refuses them, and the
/// revocation feed's long polls (the gateway, the services) on this replica wake up to read the entry the database
/// wrote in the same transaction (other replicas learn it from that entry: ``RevocationFollower``); then the report
/// goes on to `next`.
struct RevocationPublishingSink: EndedSessionSink {
    let verifier: AccessTokenVerifier
    let bell: ChangeBell
    let clock: WallClock
    let next: any EndedSessionSink

    func sessionsEnded(userID: String, sessionIDs: [String]) async {
        guard !sessionIDs.isEmpty else { return }
        verifier.endSessions(sessionIDs, until: clock.now.addingTimeInterval(TokenSigner.accessTokenLifetime))
        bell.ring()
        await next.sessionsEnded(userID: userID, sessionIDs: sessionIDs)
    }
}
