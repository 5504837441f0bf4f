import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The notifications service's storage: the only place that knows SQL. Each method is one transaction.
///
/// Stream events are handed to `publish` after their transaction commits, on the writer, so live connections
/// see them in the order of their sequence numbers.
struct NotificationsDatabase: Sendable {
    let writer: any DatabaseWriter
    private let publish: @Sendable ([StreamEvent]) -> Void

    init(_ location: DatabaseLocation, publish: @escaping @Sendable ([StreamEvent]) -> Void) throws {
        self.writer = try ServiceDatabase.open(location, migrator: NotificationsMigrations.migrator)
        self.publish = publish
    }

    // MARK: Delivering

    /// A notice for one recipient whose push preferences allowed it, with the devices to push to.
    struct PushTarget: Sendable {
        var notification: NotificationRow
        var devices: [DeviceRow]
    }

    /// Stores `notice` once per recipient (a retried post adds nothing) and streams the new ones.
    /// Returns how many were new, how many were repeats, and where pushes should go.
    func deliver(
        _ notice: IncomingNotice, now: Date
    ) async throws -> (created: Int, duplicates: Int, pushes: [PushTarget]) {
        try await writer.write { db in
            var events: [StreamEvent] = []
            var created: [NotificationRow] = []
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO notifications
                    (id, recipient_id, kind, text, link, producer, idempotency_key, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for recipient in notice.recipientIDs {
                var row = NotificationRow(
                    id: UUID().uuidString.lowercased(), recipientId: recipient, kind: notice.kind, text: notice.text,
                    link: notice.link, producer: notice.producer, idempotencyKey: notice.idempotencyKey,
                    createdAt: now)
                try insert.execute(arguments: [
                    row.id, recipient, row.kind, row.text, row.link, row.producer, row.idempotencyKey, now,
                ])
                guard db.changesCount > 0 else { continue }
                row.number = db.lastInsertedRowID
                created.append(row)
                events.append(
                    try Self.appendEvent(
                        db, recipient: recipient, type: "notification.created",
                        payload: Self.json(NotificationView(row)), now: now))
            }
            // Preferences and devices of all new recipients at once: a notice to a whole group is one query each.
            let recipients = created.map(\.recipientId)
            let preferences = try PreferencesRow.filter(keys: recipients).fetchAll(db)
                .reduce(into: [String: Preferences]()) { $0[$1.userId] = $1.preferences }
            let devices = Dictionary(
                grouping: try DeviceRow.filter(recipients.contains(Column("user_id"))).fetchAll(db), by: \.userId)
            let pushes = created.compactMap { row -> PushTarget? in
                guard let targets = devices[row.recipientId],
                    (preferences[row.recipientId] ?? Preferences()).allowsPush(of: row.kind, at: now)
                else { return nil }
                return PushTarget(notification: row, devices: targets)
            }
            afterCommit(db, events)
            return (events.count, notice.recipientIDs.count - events.count, pushes)
        }
    }

    /// Streams a producer's realtime event to each recipient.
    func append(_ event: IncomingEvent, now: Date) async throws {
        try await writer.write { db in
            let events = try event.recipientIDs.map {
                try Self.appendEvent(db, recipient: $0, type: event.type, payload: event.payload, now: now)
            }
            afterCommit(db, events)
        }
    }

    private func afterCommit(_ db: Database, _ events: [StreamEvent]) {
        guard !events.isEmpty else { return }
        let publish = self.publish
        db.afterNextTransaction { _ in publish(events) }
    }

    private static func appendEvent(
        _ db: Database, recipient: String, type: String, payload: String, now: Date
    ) throws -> StreamEvent {
        try db.cachedStatement(
            sql: "INSERT INTO stream_events (recipient_id, type, payload, created_at) VALUES (?, ?, ?, ?)"
        )
        .execute(arguments: [recipient, type, payload, now])
        return StreamEvent(seq: db.lastInsertedRowID, recipientID: recipient, type: type, payload: payload)
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try PlatformJSON.encoder.encode(value), as: UTF8.self)
    }

    // MARK: The stream log

    /// `recipient`'s events after `seq`, oldest first, and whether events after `seq` may already be pruned.
    func events(for recipient: String, after seq: Int64, limit: Int) async throws -> (events: [StreamEvent], gap: Bool)
    {
        try await writer.read { db in
            let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM stream_events")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, type, payload FROM stream_events WHERE recipient_id = ? AND seq > ?
                    ORDER BY seq LIMIT ?
                    """,
                arguments: [recipient, seq, limit])
            let events = rows.map {
                StreamEvent(seq: $0["seq"], recipientID: recipient, type: $0["type"], payload: $0["payload"])
            }
            // Pruning removes the oldest first: if the oldest left is past `seq + 1`, something may be gone.
            // (Written as `oldest - 1`: `seq` is the client's and may be Int64.max; `oldest` is at least 1.)
            let pruned = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'stream_events'")
            let gap = oldest.map { $0 - 1 > seq } ?? ((pruned ?? 0) > seq)
            return (events, gap)
        }
    }

    /// Deletes stream events older than `date`; the inbox keeps its notices.
    func pruneEvents(before date: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM stream_events WHERE created_at < ?", arguments: [date])
        }
    }

    // MARK: The inbox

    func notifications(of user: String, after number: Int64?, limit: Int, unreadOnly: Bool) async throws
        -> [NotificationRow]
    {
        try await writer.read { db in
            var request = NotificationRow.filter(Column("recipient_id") == user)
            if let number { request = request.filter(Column("number") < number) }
            if unreadOnly { request = request.filter(Column("read_at") == nil) }
            return try request.order(Column("number").desc).limit(limit).fetchAll(db)
        }
    }

    func unreadCount(of user: String) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM notifications WHERE recipient_id = ? AND read_at IS NULL",
                arguments: [user]) ?? 0
        }
    }

    /// Marks one of `user`'s notices read (or all when `id` is nil); tells their other devices. Returns how many
    /// changed, or nil when `id` is not one of theirs.
    func markRead(_ id: String?, of user: String, now: Date) async throws -> Int? {
        try await writer.write { db in
            if let id {
                guard
                    try NotificationRow.filter(Column("id") == id && Column("recipient_id") == user).fetchCount(db) > 0
                else { return nil }
            }
            var sql = "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL"
            var arguments: StatementArguments = [now, user]
            if let id {
                sql += " AND id = ?"
                arguments += [id]
            }
            try db.execute(sql: sql, arguments: arguments)
            let changed = db.changesCount
            if changed > 0 {
                struct ReadMarker: Encodable { var ids: [String]?, all: Bool }
                let marker = ReadMarker(ids: id.map { [$0] }, all: id == nil)
                let event = try Self.appendEvent(
                    db, recipient: user, type: "notification.read", payload: Self.json(marker), now: now)
                afterCommit(db, [event])
            }
            return changed
        }
    }

    /// Deletes one of `user`'s notices; false when it is not theirs.
    func delete(_ id: String, of user: String) async throws -> Bool {
        try await writer.write { db in
            try NotificationRow.filter(Column("id") == id && Column("recipient_id") == user).deleteAll(db) > 0
        }
    }

    // MARK: Devices and preferences

    /// Registers a device token; it replaces any other token of the same session (one device per session).
    func register(_ device: DeviceRow) async throws {
        try await writer.write { db in
            try DeviceRow.filter(
                Column("user_id") == device.userId && Column("session_id") == device.sessionId
                    && Column("token") != device.token
            )
            .deleteAll(db)
            try device.upsert(db)
        }
    }

    func devices(of user: String) async throws -> [DeviceRow] {
        try await writer.read { db in
            try DeviceRow.filter(Column("user_id") == user).order(Column("created_at")).fetchAll(db)
        }
    }

    /// Forgets the devices of sessions that ended (signed out, revoked, password changed); returns how many.
    func removeDevices(of user: String, sessions: [String]) async throws -> Int {
        try await writer.write { db in
            try DeviceRow.filter(Column("user_id") == user && sessions.contains(Column("session_id"))).deleteAll(db)
        }
    }

    /// Removes a token: only its owner's when `user` is given; any when APNs says it is no longer valid.
    func removeDevice(_ token: String, of user: String?) async throws -> Bool {
        try await writer.write { db in
            var request = DeviceRow.filter(Column("token") == token)
            if let user { request = request.filter(Column("user_id") == user) }
            return try request.deleteAll(db) > 0
        }
    }

    func preferences(of user: String) async throws -> Preferences {
        try await writer.read { db in try PreferencesRow.fetchOne(db, key: user)?.preferences ?? Preferences() }
    }

    func save(_ preferences: Preferences, of user: String, now: Date) async throws {
        try await writer.write { db in try PreferencesRow(userID: user, preferences: preferences, now: now).upsert(db) }
    }
}
