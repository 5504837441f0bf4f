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

    /// The outbox messages of `events` (one that cannot be encoded is left out).
    func messages(_ events: [RealtimeEvent]) -> [OutboxMessage] {
        events.compactMap { try? OutboxMessage($0, producer: producer) }
    }

    func refused(_ appended: Bool) {
        if !appended { alarm.full(limit: limit) }
    }
}

/// The notices and live events a store write reports its change with, built from what it stored. The write calls
/// ``record(_:in:)`` inside its transaction and ``committed(_:)`` after it; the controller builds this from its sink
/// and never asks where they go. Through the outbox they are appended in the transaction, so they commit or roll back
/// with the change (a full outbox drops them and raises the alarm, never the change); any other sink (a test's, the
/// log, a direct post) is handed them once the change committed. A refused change reaches neither call.
public struct ChangeNotices<Change: Sendable>: Sendable {
    private let recorder: OutboxRecorder?
    private let sink: any NoticeSink
    private let notices: @Sendable (Change) -> [Notice]
    private let events: @Sendable (Change) -> [RealtimeEvent]

    /// Notices `notices` and live events `events` builds from the change (posted in that order), through `sink`:
    /// recorded in the write's transaction when it is the service's outbox (``NoticeSink/recorder``), else published
    /// after the commit.
    public init(
        sink: any NoticeSink, notices: @escaping @Sendable (Change) -> [Notice] = { _ in [] },
        events: @escaping @Sendable (Change) -> [RealtimeEvent] = { _ in [] }
    ) {
        self.recorder = sink.recorder
        self.sink = sink
        self.notices = notices
        self.events = events
    }

    private func messages(_ change: Change, _ recorder: OutboxRecorder) -> [OutboxMessage] {
        recorder.messages(notices(change)) + recorder.messages(events(change))
    }

    /// Appends the change's notices and events in the caller's SQLite transaction (through the outbox only).
    public func record(_ change: Change, in db: Database) throws {
        guard let recorder else { return }
        let messages = messages(change, recorder)
        recorder.refused(try SQLiteOutbox.append(db, messages, limit: recorder.limit, now: recorder.clock.now))
    }

    /// Appends the change's notices and events in the caller's PostgreSQL transaction (through the outbox only).
    public func record(_ change: Change, in db: PostgresSession) async throws {
        guard let recorder else { return }
        let messages = messages(change, recorder)
        recorder.refused(
            try await PostgresOutbox.append(db, messages, limit: recorder.limit, now: recorder.clock.now))
    }

    /// Once the write committed: wakes the outbox's delivery, or hands the change's notices, then its events, to the
    /// sink.
    public func committed(_ change: Change) async {
        if let recorder {
            recorder.delivery.wake()
            return
        }
        for notice in notices(change) { await sink.publish(notice) }
        for event in events(change) { await sink.publish(event) }
    }
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

extension ServiceDatabase {
    /// One write transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    public func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (Database) throws -> Change
    ) async throws -> Change {
        let change = try await write { db in
            let change = try body(db)
            try notices?.record(change, in: db)
            return change
        }
        await notices?.committed(change)
        return change
    }
}

extension PostgresServiceDatabase {
    /// One transaction (``write(isolation:attempts:_:)``) whose change `notices` reports: recorded in it, and handed
    /// on once it committed.
    public func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (PostgresSession) async throws -> Change
    ) async throws -> Change {
        let change = try await write { db in
            let change = try await body(db)
            try await notices?.record(change, in: db)
            return change
        }
        await notices?.committed(change)
        return change
    }
}
