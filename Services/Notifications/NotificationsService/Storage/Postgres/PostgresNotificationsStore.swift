import Foundation
import Logging
import NIOCore
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The notifications service's storage in PostgreSQL, through PostgresNIO: any number of replicas serve one database.
///
/// What replicas must agree on lives in the database. Every writer of a recipient's stream events or notices first
/// takes that recipient's stream lock (``lockStreams(_:of:)``), so each recipient's sequence numbers follow commit
/// order as under SQLite's single writer; realtime events' idempotency keys are rows; and every stored event is
/// announced on ``channel`` at commit, where each replica's ``PostgresStreamFeed`` reads what its own connected users
/// have not been handed yet.
struct PostgresNotificationsStore: NotificationsStore {
    let database: PostgresServiceDatabase
    let hub: EventHub
    let logger: Logger
    /// Where writers announce stored events and ended sessions to every replica (``PostgresStreamFeed``).
    static let channel = "notifications_stream"

    /// Connects to `url`, brings its schema up to date; stored events reach `hub` through the feed.
    static func open(_ url: PostgresURL, hub: EventHub, logger: Logger) async throws -> PostgresNotificationsStore {
        PostgresNotificationsStore(
            database: try await PostgresServiceDatabase.open(
                url, migrations: PostgresNotificationsMigrations.all, logger: logger),
            hub: hub, logger: logger)
    }

    var probe: any DatabaseProbe { database }

    var services: [any Service] {
        let feed = PostgresStreamFeed(database: database, hub: hub, logger: logger)
        return [
            database.service,
            PostgresChangeListener(database: database, channel: Self.channel) { await feed.receive($0) },
        ]
    }

    /// Statements outside a transaction, each seeing what was committed when it started.
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// One transaction at READ COMMITTED; the locks each write takes keep its invariants.
    func write<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// Whether PostgreSQL's text can hold these client values (it holds no NUL; SQLite's may): one that cannot names
    /// nothing stored, and bound in a query it would fail it.
    static func storable(_ values: String...) -> Bool {
        values.allSatisfy { !$0.utf8.contains(0) }
    }

    // MARK: Rows

    static let notificationColumns =
        "number, id, recipient_id, kind, text, link, producer, idempotency_key, created_at, read_at"

    static func notification(_ row: PostgresRow) throws -> NotificationRecord {
        let (number, id, recipientID, kind, text, link, producer, key, createdAt, readAt) = try row.decode(
            (Int64, String, String, String, String, String, String, String, Date, Date?).self)
        return NotificationRecord(
            number: number, id: id, recipientId: recipientID, kind: kind, text: text, link: link, producer: producer,
            idempotencyKey: key, createdAt: createdAt, readAt: readAt)
    }

    static let deviceColumns = "token, user_id, session_id, environment, created_at"

    static func device(_ row: PostgresRow) throws -> DeviceRecord {
        let (token, userID, sessionID, environment, createdAt) = try row.decode(
            (String, String, String, String, Date).self)
        return DeviceRecord(
            token: token, userId: userID, sessionId: sessionID, environment: environment, createdAt: createdAt)
    }

    static let preferencesColumns =
        "user_id, disabled_kinds, quiet_start_minute, quiet_end_minute, time_zone, updated_at"

    static func preferences(_ row: PostgresRow) throws -> PreferencesRecord {
        let (userID, kinds, start, end, zone, updatedAt) = try row.decode(
            (String, String, Int?, Int?, String?, Date).self)
        return PreferencesRecord(
            userId: userID, disabledKinds: kinds, quietStartMinute: start, quietEndMinute: end, timeZone: zone,
            updatedAt: updatedAt)
    }
}

/// An instant as SQLite keeps it (whole milliseconds, GRDB's text form), bound to PostgreSQL exactly, so that both
/// stores answer the same instants and compare them alike. (PostgresNIO's own `Date` binding truncates a binary
/// fraction: 0.123 s would be stored as 122,999 µs.)
struct StoredInstant: PostgresNonThrowingEncodable {
    /// Milliseconds since 1970, rounded down as GRDB writes them.
    let milliseconds: Int64

    init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }

    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    /// Microseconds since 2000-01-01, PostgreSQL's epoch.
    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeInteger(milliseconds * 1_000 - 946_684_800_000_000)
    }
}
