import Foundation

/// What an outbox entry is posted as: a notice for the inbox or a realtime event for live streams.
public enum OutboxKind: String, Sendable, CaseIterable {
    case notice, event
}

/// A post to the notifications service, as a service hands it to its outbox.
public struct OutboxMessage: Sendable, Equatable {
    public var kind: OutboxKind
    /// The JSON body of the post, exactly as the notifications service's internal route takes it.
    public var body: Data
    /// The key the notifications service recognises a redelivery by.
    public var idempotencyKey: String

    /// A message of `kind` posting `body`.
    public init(kind: OutboxKind, body: Data, idempotencyKey: String) {
        self.kind = kind
        self.body = body
        self.idempotencyKey = idempotencyKey
    }
}

/// A message waiting in a service's outbox; entries go out in the order of `seq`.
public struct OutboxEntry: Sendable, Equatable {
    public var seq: Int64
    public var message: OutboxMessage
    /// Failed deliveries so far.
    public var attempts: Int
    /// Not delivered before this instant (the back-off after a failure).
    public var nextAttemptAt: Date

    /// An entry as stored.
    public init(seq: Int64, message: OutboxMessage, attempts: Int, nextAttemptAt: Date) {
        self.seq = seq
        self.message = message
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
    }
}

/// What delivering the head of an outbox came to: the entries that are done (delivered, or refused for good) and
/// the one that failed, which waits until `retryAt` (the entries behind it wait with it, so order holds).
public struct OutboxDrainOutcome: Sendable, Equatable {
    public var done: [Int64]
    public var failed: Int64?
    public var retryAt: Date?

    /// An outcome removing `done` and postponing `failed` to `retryAt`.
    public init(done: [Int64], failed: Int64? = nil, retryAt: Date? = nil) {
        self.done = done
        self.failed = failed
        self.retryAt = retryAt
    }
}

/// A service's outbox, kept in the service's own database: written with the changes it reports, drained in order.
public protocol OutboxStorage: Sendable {
    /// Appends `messages` in order (one transaction) unless the outbox already holds `limit` entries; `false` when
    /// refused for that.
    func append(_ messages: [OutboxMessage], limit: Int, now: Date) async throws -> Bool
    /// How many entries wait.
    func count() async throws -> Int
    /// Claims the first `batch` entries in order if the first is due at `now`, hands them to `deliver`, then removes
    /// the ones it reports done and postpones the one it reports failed. One drainer at a time: while another
    /// (another replica) drains, this answers 0 at once. Answers how many entries `deliver` was given.
    func drain(batch: Int, now: Date, _ deliver: @Sendable ([OutboxEntry]) async -> OutboxDrainOutcome)
        async throws -> Int
}

/// How long an entry waits after its `attempts`th failed delivery: 0.5 s doubling up to 30 s.
public enum OutboxBackoff {
    public static let first: TimeInterval = 0.5
    public static let longest: TimeInterval = 30

    /// The wait after `attempts` failures (1 or more).
    public static func delay(afterAttempts attempts: Int) -> TimeInterval {
        // Bounded before the power: 2^7 * 0.5 already passes the cap.
        let doublings = min(max(attempts, 1) - 1, 8)
        return min(longest, first * Double(1 << doublings))
    }
}
