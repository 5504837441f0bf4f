import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The notifications service's storage in SQLite, through GRDB (the default): one file, one writer, one process.
///
/// Stream events are handed to `publish` after their transaction commits, on the writer, so live connections
/// see them in the order of their sequence numbers. Realtime events' idempotency keys are remembered in memory
/// (``RecentEventKeys``): there is only this process to recognise a retry.
struct SQLiteNotificationsStore: NotificationsStore {
    private let database: ServiceDatabase
    private let publish: @Sendable ([StreamEvent]) -> Void
    let recentEvents: RecentEventKeys

    init(
        _ location: DatabaseLocation, recentEvents: RecentEventKeys = RecentEventKeys(),
        publish: @escaping @Sendable ([StreamEvent]) -> Void
    ) throws {
        self.database = try ServiceDatabase(location, migrator: NotificationsMigrations.migrator)
        self.recentEvents = recentEvents
        self.publish = publish
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [] }

    /// One read transaction, for the `SQLiteNotificationsStore+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `SQLiteNotificationsStore+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// Hands `events` to the live streams once the current transaction commits.
    func afterCommit(_ db: Database, _ events: [StreamEvent]) {
        guard !events.isEmpty else { return }
        let publish = self.publish
        db.afterNextTransaction { _ in publish(events) }
    }

    /// Appends one event to `recipient`'s stream log.
    static func appendEvent(
        _ db: Database, recipient: String, type: String, payload: String, now: Date
    ) throws -> StreamEvent {
        try db.cachedStatement(
            sql: "INSERT INTO stream_events (recipient_id, type, payload, created_at) VALUES (?, ?, ?, ?)"
        )
        .execute(arguments: [recipient, type, payload, now])
        return StreamEvent(seq: db.lastInsertedRowID, recipientID: recipient, type: type, payload: payload)
    }
}
