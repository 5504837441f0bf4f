import Foundation
import ServiceKit

/// The notifications service's storage, whichever database keeps it (``SQLiteNotificationsStore``,
/// ``PostgresNotificationsStore``): the only place that knows SQL. Each method is one transaction.
///
/// Every stream event a method stores reaches the ``EventHub`` of each replica after its transaction commits, in the
/// order of its recipient's sequence numbers: SQLite's single writer hands it to this process's hub; PostgreSQL tells
/// every replica through `LISTEN/NOTIFY`, and each reads the events of its own connected users.
protocol NotificationsStore: ServiceStore {
    // MARK: Delivery

    /// Stores `deliveries` in order, in one transaction (all or none), and streams what is new: a notice once per
    /// recipient (a retried post adds nothing), an event to each recipient unless its idempotency key was already
    /// accepted from that producer within ``RecentEventKeys/defaultWindow``. One outcome per delivery, in order.
    ///
    /// A producer's outbox arrives as a batch of these; one commit for the batch rather than one per entry was the
    /// largest storage cost left in the notifications service under a day of users' load.
    func accept(_ deliveries: [Delivery], now: Date) async throws -> [DeliveryOutcome]

    // MARK: Inbox

    /// `user`'s notices newest first, those numbered below `number` (all when nil), at most `limit`.
    func notifications(of user: String, after number: Int64?, limit: Int, unreadOnly: Bool) async throws
        -> [NotificationRecord]

    func unreadCount(of user: String) async throws -> Int

    /// Marks one of `user`'s notices read (or all when `id` is nil); tells their other devices. Returns how many
    /// changed; a notice that is not theirs is ``NotificationsError/notFound(_:)``.
    func markRead(_ id: String?, of user: String, now: Date) async throws -> Int

    /// Deletes one of `user`'s notices; one that is not theirs is ``NotificationsError/notFound(_:)``.
    func delete(_ id: String, of user: String) async throws

    // MARK: Devices and preferences

    /// Registers a device token; it replaces any other token of the same session (one device per session).
    func register(_ device: DeviceRecord) async throws

    /// `user`'s devices, oldest first.
    func devices(of user: String) async throws -> [DeviceRecord]

    /// Forgets the devices of sessions that ended (signed out, revoked, password changed); returns how many. With
    /// PostgreSQL it also ends those sessions' live streams on the other replicas (the caller ends this one's).
    func removeDevices(of user: String, sessions: [String]) async throws -> Int

    /// Removes a token: only its owner's when `user` is given; any when APNs says it is no longer valid.
    func removeDevice(_ token: String, of user: String?) async throws -> Bool

    func preferences(of user: String) async throws -> Preferences

    func save(_ preferences: Preferences, of user: String, now: Date) async throws

    // MARK: Stream log

    /// `recipient`'s events after `seq`, oldest first, and whether events after `seq` may already be pruned.
    func events(for recipient: String, after seq: Int64, limit: Int) async throws
        -> (events: [StreamEvent], gap: Bool)

    /// Deletes stream events (and remembered idempotency keys) older than `date`; the inbox keeps its notices.
    func pruneEvents(before date: Date) async throws
}

extension NotificationsStore {
    /// Stores `notice` once per recipient (a retried post adds nothing) and streams the new ones.
    /// Returns how many were new, how many were repeats, and where pushes should go.
    func deliver(_ notice: IncomingNotice, now: Date) async throws
        -> (created: Int, duplicates: Int, pushes: [PushTarget])
    {
        guard
            case .notice(let created, let duplicates, let pushes) = try await accept([.notice(notice)], now: now).first
        else { return (0, 0, []) }
        return (created, duplicates, pushes)
    }

    /// Streams a producer's realtime event to each recipient; `false` when its idempotency key was already accepted
    /// from that producer within ``RecentEventKeys/defaultWindow`` (nothing is stored then).
    @discardableResult
    func append(_ event: IncomingEvent, now: Date) async throws -> Bool {
        guard case .event(let accepted) = try await accept([.event(event)], now: now).first else { return false }
        return accepted
    }
}
