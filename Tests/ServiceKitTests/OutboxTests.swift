import Foundation
import GRDB
import Logging
import PlatformKit
import ServiceKit
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

@Suite struct OutboxTests {
    /// An outbox of `kind` on a fresh database, with its pool running (PostgreSQL) for `body`.
    func withOutbox<T: Sendable>(_ kind: StoreKind, _ body: (any OutboxStorage) async throws -> T) async throws -> T {
        switch try await kind.freshLocation() {
        case .postgres(let url):
            let database = try await PostgresServiceDatabase.open(
                url, migrations: [OutboxMigrations.postgres], logger: Logger(label: "test.outbox"))
            return try await running(database) { try await body(PostgresOutbox(database: database)) }
        case let location:
            var migrator = DatabaseMigrator()
            OutboxMigrations.register(in: &migrator)
            let database = try ServiceDatabase(location, migrator: migrator)
            return try await body(SQLiteOutbox(writer: database.writer))
        }
    }

    func running<T: Sendable>(_ database: PostgresServiceDatabase, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.service.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    func message(_ key: String) -> OutboxMessage {
        OutboxMessage(kind: .notice, body: Data(#"{"key":"\#(key)"}"#.utf8), idempotencyKey: key)
    }

    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: StoreKind.allCases)
    func entriesGoOutInOrderAndLeaveOnceDone(kind: StoreKind) async throws {
        try await withOutbox(kind) { outbox in
            // given
            #expect(try await outbox.append([message("a"), message("b")], limit: 10, now: now))
            #expect(try await outbox.append([message("c")], limit: 10, now: now))
            // when
            let seen = Mutex<[OutboxEntry]>([])
            let handed = try await outbox.drain(batch: 10, now: now) { entries in
                seen.withLock { $0 = entries }
                return OutboxDrainOutcome(done: entries.map(\.seq))
            }
            // then
            let entries = seen.withLock { $0 }
            #expect(handed == 3)
            #expect(entries.map(\.message.idempotencyKey) == ["a", "b", "c"])
            #expect(entries.map(\.seq) == entries.map(\.seq).sorted())
            #expect(entries[0].message == message("a"))
            #expect(try await outbox.count() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedEntryWaitsWithThoseBehindItUntilItsRetry(kind: StoreKind) async throws {
        try await withOutbox(kind) { outbox in
            // given: the first of two fails
            #expect(try await outbox.append([message("a"), message("b")], limit: 10, now: now))
            let retryAt = now.addingTimeInterval(OutboxBackoff.delay(afterAttempts: 1))
            _ = try await outbox.drain(batch: 10, now: now) { entries in
                OutboxDrainOutcome(done: [], failed: entries[0].seq, retryAt: retryAt)
            }
            // when: asked again before and at its retry
            let early = try await outbox.drain(batch: 10, now: now.addingTimeInterval(0.4)) { _ in
                Issue.record("nothing is due before the retry")
                return OutboxDrainOutcome(done: [])
            }
            let seen = Mutex<[OutboxEntry]>([])
            let due = try await outbox.drain(batch: 10, now: retryAt) { entries in
                seen.withLock { $0 = entries }
                return OutboxDrainOutcome(done: entries.map(\.seq))
            }
            // then
            #expect(early == 0)
            #expect(due == 2)
            let entries = seen.withLock { $0 }
            #expect(entries.map(\.message.idempotencyKey) == ["a", "b"])
            #expect(entries.map(\.attempts) == [1, 0])
            #expect(entries.first?.nextAttemptAt == retryAt)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFullOutboxRefusesNewEntriesUntilItDrains(kind: StoreKind) async throws {
        try await withOutbox(kind) { outbox in
            // given
            #expect(try await outbox.append([message("a"), message("b")], limit: 2, now: now))
            // when
            let refused = try await outbox.append([message("c")], limit: 2, now: now)
            _ = try await outbox.drain(batch: 1, now: now) { entries in OutboxDrainOutcome(done: entries.map(\.seq)) }
            let afterDrain = try await outbox.append([message("d")], limit: 2, now: now)
            // then
            #expect(!refused)
            #expect(afterDrain)
            #expect(try await outbox.count() == 2)
        }
    }

    @Test func oneReplicaDrainsAtATime() async throws {
        // given: two replicas' outboxes on one database, the first in the middle of its delivery
        let url = try await ThrowawayPostgres.freshDatabase()
        let logger = Logger(label: "test.outbox")
        let first = try await PostgresServiceDatabase.open(url, migrations: [OutboxMigrations.postgres], logger: logger)
        let second = try await PostgresServiceDatabase.open(
            url, migrations: [OutboxMigrations.postgres], logger: logger)
        try await running(first) {
            try await running(second) {
                let one = PostgresOutbox(database: first)
                let other = PostgresOutbox(database: second)
                #expect(try await one.append([message("a")], limit: 10, now: now))
                let (started, startedOnce) = AsyncStream.makeStream(of: Void.self)
                let (release, releaseOnce) = AsyncStream.makeStream(of: Void.self)
                let now = now
                let draining = Task {
                    try await one.drain(batch: 10, now: now) { entries in
                        startedOnce.yield()
                        for await _ in release { break }
                        return OutboxDrainOutcome(done: entries.map(\.seq))
                    }
                }
                for await _ in started { break }
                // when
                let meanwhile = try await other.drain(batch: 10, now: now) { entries in
                    Issue.record("a second replica drained at the same time")
                    return OutboxDrainOutcome(done: [])
                }
                releaseOnce.yield()
                let handed = try await draining.value
                // then
                #expect(meanwhile == 0)
                #expect(handed == 1)
                #expect(try await other.count() == 0)
            }
        }
    }

    @Test func backOffDoublesFromHalfASecondToThirtySeconds() {
        #expect((1...9).map(OutboxBackoff.delay(afterAttempts:)) == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(OutboxBackoff.delay(afterAttempts: .max) == 30)
    }

    @Test(arguments: StoreKind.allCases)
    func deliveryToAnAbsentServiceKeepsTheEntryAndBacksOffOnTheServiceClock(kind: StoreKind) async throws {
        try await withOutbox(kind) { outbox in
            // given: a notice in the outbox, the notifications service not listening
            let clock = ManualClock(now)
            let settings = ServiceSettings(service: .social, internalToken: "t", clock: clock.wallClock)
            let delivery = OutboxDelivery(
                outbox: outbox, address: "http://127.0.0.1:1", settings: settings, logger: Logger(label: "test"))
            let sink = OutboxNoticeSink(
                outbox: outbox, producer: .social, limit: 10, clock: clock.wallClock, delivery: delivery,
                logger: Logger(label: "test"))
            await sink.publish(Notice(recipients: ["u1"], kind: "social.test", text: "Hi", link: "/v1/x"))
            // when: delivered now, again before the back-off ends, and once it has
            let first = try await delivery.deliverDue()
            let early = try await delivery.deliverDue()
            clock.advance(by: 0.5)
            let second = try await delivery.deliverDue()
            // then
            #expect(first.failed && first.done == 0)
            #expect(!early.failed && early.done == 0)
            #expect(second.failed)
            let waiting = Mutex<[OutboxEntry]>([])
            _ = try await outbox.drain(batch: 10, now: clock.now.addingTimeInterval(1)) { entries in
                waiting.withLock { $0 = entries }
                return OutboxDrainOutcome(done: [])
            }
            let entry = try #require(waiting.withLock { $0 }.first)
            #expect(entry.attempts == 2)
            #expect(entry.nextAttemptAt == now.addingTimeInterval(0.5 + 1))
            let body = try JSONSerialization.jsonObject(with: entry.message.body) as? [String: Any]
            #expect(body?["producer"] as? String == "social")
            #expect(body?["recipientIds"] as? [String] == ["u1"])
        }
    }
}
