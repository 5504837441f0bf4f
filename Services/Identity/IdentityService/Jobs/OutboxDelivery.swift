import Foundation
import Logging
import PlatformKit
import ServiceLifecycle

/// Delivers queued mail in the background, retrying with back-off, so a slow or failing mail server
/// never delays or fails the request that produced the mail.
final class OutboxDelivery: Service, Sendable {
    private let store: any IdentityStore
    private let transport: any MailTransport
    private let clock: WallClock
    private let logger: Logger
    private let wakeUps: AsyncStream<Void>
    private let wakeUpContinuation: AsyncStream<Void>.Continuation
    static let maximumAttempts = 8
    /// How far a given-up message's next attempt is pushed (it stays in the table with its last error).
    static let never: TimeInterval = 365 * 86_400
    /// Messages claimed at a time, and how long a claim keeps other replicas' loops off them: longer than sending
    /// them takes (each send is bounded by the SMTP client's timeouts), short enough that mail claimed by a replica
    /// that died goes out soon after.
    static let claimBatch = 10
    static let claimLease: TimeInterval = 10 * 60

    init(store: any IdentityStore, transport: any MailTransport, clock: WallClock, logger: Logger) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.logger = logger
        (wakeUps, wakeUpContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the loop to look at the outbox now (after a mail was queued).
    func wakeUp() {
        wakeUpContinuation.yield()
    }

    func run() async throws {
        // Wake at least every few seconds for retries that have come due.
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                wakeUpContinuation.yield()
            }
        }
        defer { ticker.cancel() }
        await cancelWhenGracefulShutdown {
            await self.deliverDue()
            for await _ in self.wakeUps {
                await self.deliverDue()
            }
        }
    }

    /// Sends every message that is due, claimed first so that another replica's loop does not send it too; one
    /// failure does not hold up the others.
    func deliverDue() async {
        do {
            var claimed: [OutboxEmailRecord]
            repeat {
                claimed = try await store.claimDueEmails(
                    now: clock.now, limit: Self.claimBatch, lease: Self.claimLease)
                for email in claimed { try await deliver(email) }
            } while claimed.count == Self.claimBatch
        } catch is CancellationError {
            return
        } catch {
            logger.error("outbox unavailable", metadata: ["error": "\(error)"])
        }
    }

    private func deliver(_ email: OutboxEmailRecord) async throws {
        guard let id = email.id else { return }
        do {
            try await transport.send(MailMessage(recipient: email.recipient, subject: email.subject, body: email.body))
            try await store.markSent(emailID: id, now: clock.now)
            logger.info("mail delivered", metadata: ["outbox_id": "\(id)", "subject": "\(email.subject)"])
        } catch {
            // A 5xx (or a refusal of ours) will not change on retry: give up now, with the reason logged.
            let attempts = email.attempts + 1
            let permanent = (error as? SMTPError)?.isPermanent ?? false
            let givesUp = permanent || attempts >= Self.maximumAttempts
            let delay = givesUp ? Self.never : pow(2, Double(attempts)) * 30
            try await store.markFailed(emailID: id, error: "\(error)", retryAt: clock.now.addingTimeInterval(delay))
            if givesUp {
                logger.error(
                    "mail delivery gave up",
                    metadata: ["outbox_id": "\(id)", "attempts": "\(attempts)", "reason": "\(error)"])
            } else {
                logger.warning(
                    "mail delivery failed, will retry",
                    metadata: ["outbox_id": "\(id)", "retry_in_seconds": "\(Int(delay))", "error": "\(error)"])
            }
        }
    }
}
