import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The notifications service's storage: the only place that knows SQL. Each method is one transaction.
///
/// Stream events are handed to `publish` after their transaction commits, on the writer, so live connections
/// see them in the order of their sequence numbers.
struct NotificationsDatabase: Sendable {
    private let database: ServiceDatabase
    private let publish: @Sendable ([StreamEvent]) -> Void

    init(_ location: DatabaseLocation, publish: @escaping @Sendable ([StreamEvent]) -> Void) throws {
        self.database = try ServiceDatabase(location, migrator: NotificationsMigrations.migrator)
        self.publish = publish
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { database.writer }

    /// One read transaction, for the `NotificationsDatabase+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `NotificationsDatabase+<Concern>` files.
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

    /// An event payload: compact JSON on one line.
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try PlatformJSON.encoder.encode(value), as: UTF8.self)
    }
}
