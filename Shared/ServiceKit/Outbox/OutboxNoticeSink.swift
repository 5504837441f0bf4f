import Foundation
import GRDB
import Logging
import PlatformKit
import ServiceLifecycle
import Synchronization

extension OutboxMessage {
    /// The post of `notice` from `producer`.
    public init(_ notice: Notice, producer: ServiceName) throws {
        self.init(
            kind: .notice, body: Data(try PlatformJSONWriter.encode(NoticePostBody(notice, producer: producer))),
            idempotencyKey: notice.idempotencyKey)
    }

    /// The post of `event` from `producer`.
    public init(_ event: RealtimeEvent, producer: ServiceName) throws {
        self.init(
            kind: .event, body: Data(try PlatformJSONWriter.encode(EventPostBody(event, producer: producer))),
            idempotencyKey: event.idempotencyKey)
    }
}

/// Keeps notices and realtime events in the service's outbox, for ``OutboxDelivery`` to post: the request that
/// caused them waits for one short local write, never for the notifications service.
public struct OutboxNoticeSink: NoticeSink {
    private let outbox: any OutboxStorage
    private let producer: ServiceName
    private let limit: Int
    private let clock: WallClock
    private let delivery: OutboxDelivery
    private let alarm: OutboxAlarm

    /// A sink appending to `outbox` (refusing beyond `limit` entries) and waking `delivery`.
    public init(
        outbox: any OutboxStorage, producer: ServiceName, limit: Int, clock: WallClock, delivery: OutboxDelivery,
        logger: Logger
    ) {
        self.outbox = outbox
        self.producer = producer
        self.limit = limit
        self.clock = clock
        self.delivery = delivery
        self.alarm = OutboxAlarm(logger: logger, clock: clock)
    }

    public func publish(_ notice: Notice) async {
        await append { try OutboxMessage(notice, producer: producer) }
    }

    public func publish(_ event: RealtimeEvent) async {
        await append { try OutboxMessage(event, producer: producer) }
    }

    public var recorder: OutboxRecorder? {
        OutboxRecorder(producer: producer, limit: limit, clock: clock, delivery: delivery, alarm: alarm)
    }

    private func append(_ message: () throws -> OutboxMessage) async {
        do {
            if try await outbox.append([message()], limit: limit, now: clock.now) {
                delivery.wake()
            } else {
                alarm.full(limit: limit)
            }
        } catch {
            alarm.failed(error)
        }
    }
}

/// Appends notices to the outbox inside a store's own write transaction, so they commit or roll back with the
/// change they report (``ChangeNotices``).
public struct OutboxRecorder: Sendable {
    let producer: ServiceName
    let limit: Int
    let clock: WallClock
    let delivery: OutboxDelivery
    let alarm: OutboxAlarm

    /// The outbox messages of `notices` (one that cannot be encoded is left out).
    func messages(_ notices: [Notice]) -> [OutboxMessage] {
        notices.compactMap { try? OutboxMessage($0, producer: producer) }
    }

    func refused(_ appended: Bool) {
        if !appended { alarm.full(limit: limit) }
    }
}

/// The notices a store write records with its change, built from what it stored: the write calls ``record(_:in:)``
/// inside its transaction and ``committed()`` after it. A full outbox drops the notices (and raises the alarm), never
/// the change.
public struct ChangeNotices<Change: Sendable>: Sendable {
    private let recorder: OutboxRecorder
    private let notices: @Sendable (Change) -> [Notice]

    /// Notices `notices` builds from the change, recorded through `recorder` (``NoticeSink/recorder``).
    public init(recorder: OutboxRecorder, notices: @escaping @Sendable (Change) -> [Notice]) {
        self.recorder = recorder
        self.notices = notices
    }

    /// Appends the change's notices in the caller's SQLite transaction.
    public func record(_ change: Change, in db: Database) throws {
        let messages = recorder.messages(notices(change))
        recorder.refused(try SQLiteOutbox.append(db, messages, limit: recorder.limit, now: recorder.clock.now))
    }

    /// Appends the change's notices in the caller's PostgreSQL transaction.
    public func record(_ change: Change, in db: PostgresSession) async throws {
        let messages = recorder.messages(notices(change))
        recorder.refused(
            try await PostgresOutbox.append(db, messages, limit: recorder.limit, now: recorder.clock.now))
    }

    /// Wakes the delivery once the write committed.
    public func committed() { recorder.delivery.wake() }
}

/// The error a full or failing outbox logs, at most once a minute (a full outbox refuses every notice).
final class OutboxAlarm: Sendable {
    private let logger: Logger
    private let clock: WallClock
    private let lastRaised = Mutex<Date?>(nil)
    private let refused = Mutex(0)

    init(logger: Logger, clock: WallClock) {
        self.logger = logger
        self.clock = clock
    }

    func full(limit: Int) {
        let count = refused.withLock { count in
            count += 1
            return count
        }
        guard due() else { return }
        logger.error(
            "outbox full: notices refused; is the notifications service reachable?",
            metadata: ["limit": "\(limit)", "refused": "\(count)"])
    }

    func failed(_ error: any Error) {
        guard due() else { return }
        logger.error("outbox append failed: notice lost", metadata: ["error": "\(error)"])
    }

    private func due() -> Bool {
        let now = clock.now
        return lastRaised.withLock { last in
            if let last, now.timeIntervalSince(last) < 60 { return false }
            last = now
            return true
        }
    }
}

/// Posts a service's outbox to the notifications service in order, runs beside the server: at once when an entry
/// is appended, else every `pollInterval`. A failed post keeps its entry (and those behind it) for a back-off of
/// ``OutboxBackoff``, read on the service's clock; an entry the notifications service refuses as malformed (a 4xx
/// other than 401, 403, 404, 408 and 429, which a restart or a configuration fix cures) is logged and dropped.
public final class OutboxDelivery: Service, Sendable {
    private let outbox: any OutboxStorage
    private let client: InternalClient
    private let clock: WallClock
    private let logger: Logger
    private let pollInterval: Duration
    private let batch: Int
    private let bell = ChangeBell()

    /// Delivery of `outbox` to the notifications service at `address`.
    public init(
        outbox: any OutboxStorage, address: ServiceAddress, settings: ServiceSettings, logger: Logger,
        pollInterval: Duration = .seconds(1), batch: Int = 100
    ) {
        self.outbox = outbox
        // Shorter than a request's: a drain holds its transaction while it posts, and the entry is kept anyway.
        self.client = InternalClient(
            service: .notifications, address: address, token: settings.internalToken, timeout: .seconds(5))
        self.clock = settings.clock
        self.logger = logger
        self.pollInterval = pollInterval
        self.batch = batch
    }

    /// Delivery should look now (an entry was appended).
    public func wake() { bell.ring() }

    /// Posts the entries due now, in order, until one fails; answers how many were done and whether one failed.
    @discardableResult
    public func deliverDue() async throws -> (done: Int, failed: Bool) {
        let result = Mutex((done: 0, failed: false))
        _ = try await outbox.drain(batch: batch, now: clock.now) { entries in
            let outcome = await self.post(entries)
            result.withLock { $0 = (outcome.done.count, outcome.failed != nil) }
            return outcome
        }
        return result.withLock { $0 }
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let generation = self.bell.generation
                var more = false
                do {
                    let result = try await self.deliverDue()
                    more = result.done > 0 && !result.failed
                } catch is CancellationError {
                    return
                } catch {
                    self.logger.error("outbox delivery failed", metadata: ["error": "\(error)"])
                }
                if !more { await self.bell.wait(after: generation, timeout: self.pollInterval) }
            }
        }
    }

    private func post(_ entries: [OutboxEntry]) async -> OutboxDrainOutcome {
        var done: [Int64] = []
        for entry in entries {
            let path =
                entry.message.kind == .notice
                ? NotificationsPaths.internalNotifications : NotificationsPaths.internalEvents
            do {
                try await client.post(path, json: entry.message.body)
                done.append(entry.seq)
            } catch InternalCallError.failed(_, let status, let problem) where Self.refusedForGood(status) {
                logger.error(
                    "notifications refused an outbox entry; dropped",
                    metadata: [
                        "key": "\(entry.message.idempotencyKey)", "status": "\(status)",
                        "code": "\(problem?.code ?? "")",
                    ])
                done.append(entry.seq)
            } catch {
                let attempts = entry.attempts + 1
                // Once when an entry starts failing, then now and then, not at every back-off.
                if attempts == 1 || attempts % 20 == 0 {
                    logger.warning(
                        "outbox delivery waiting for the notifications service",
                        metadata: ["attempts": "\(attempts)", "error": "\(error)"])
                }
                return OutboxDrainOutcome(
                    done: done, failed: entry.seq,
                    retryAt: clock.now.addingTimeInterval(OutboxBackoff.delay(afterAttempts: attempts)))
            }
        }
        return OutboxDrainOutcome(done: done)
    }

    /// A refusal that no retry changes: the entry itself is wrong.
    static func refusedForGood(_ status: Int) -> Bool {
        (400..<500).contains(status) && ![401, 403, 404, 408, 429].contains(status)
    }
}

/// Where a service's notices go, and what must run beside the server to get them there.
public struct NoticeRouting: Sendable {
    /// What the service's controllers and jobs publish to.
    public let sink: any NoticeSink
    /// The outbox's delivery, when there is one.
    public let services: [any Service]

    /// Notices to `sink`, with `services` to run beside the server.
    public init(sink: any NoticeSink, services: [any Service] = []) {
        self.sink = sink
        self.services = services
    }
}

extension ServiceSettings {
    /// A service's notices: to the `injected` sink if a test gave one; else through `outbox` to the notifications
    /// service when its URL is set (posted directly when the store has no outbox); else to the log.
    public func noticeRouting(
        injected: (any NoticeSink)? = nil, notificationsURL: ServiceAddress?, outbox: (any OutboxStorage)?,
        logger: Logger
    ) -> NoticeRouting {
        if let injected { return NoticeRouting(sink: injected) }
        guard let notificationsURL, let outbox else {
            return NoticeRouting(sink: noticeSink(notificationsURL: notificationsURL, logger: logger), services: [])
        }
        let delivery = OutboxDelivery(outbox: outbox, address: notificationsURL, settings: self, logger: logger)
        let sink = OutboxNoticeSink(
            outbox: outbox, producer: service, limit: outboxLimit, clock: clock, delivery: delivery, logger: logger)
        return NoticeRouting(sink: sink, services: [delivery])
    }
}
