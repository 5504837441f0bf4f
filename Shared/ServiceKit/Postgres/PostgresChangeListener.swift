import Logging
import PostgresNIO
import ServiceLifecycle

/// Tells this replica of a service what its other replicas committed, through PostgreSQL's `LISTEN/NOTIFY`.
///
/// A writer sends ``PostgresConnection/notify(_:payload:logger:)`` inside its transaction (PostgreSQL delivers it
/// at commit, to every connection listening on the channel, the writer's own process included); each replica runs
/// one listener per channel, which hands each payload to `onNotice`. Each time it is in place, at start and after a
/// lost connection, it calls `onNotice(nil)`: notices sent before are not for it (or are gone), so the receiver
/// catches up from the table itself.
public struct PostgresChangeListener: Service {
    let database: PostgresServiceDatabase
    let channel: String
    let onNotice: @Sendable (String?) async -> Void

    /// Listens on `channel` of `database` and hands every notice's payload to `onNotice`.
    public init(
        database: PostgresServiceDatabase, channel: String, onNotice: @escaping @Sendable (String?) async -> Void
    ) {
        self.database = database
        self.channel = channel
        self.onNotice = onNotice
    }

    public func run() async throws {
        while !Task.isCancelledOrShuttingDown {
            do {
                try await database.client.withConnection { connection in
                    try await connection.listen(on: channel) { notices in
                        // Listening from here on: what was committed before is in the tables, so the receiver
                        // catches up once (at start-up too, where a stream opened before this could miss a notice).
                        await onNotice(nil)
                        for try await notice in notices.cancelOnGracefulShutdown() {
                            await onNotice(notice.payload)
                        }
                    }
                }
            } catch {
                guard !Task.isCancelledOrShuttingDown else { return }
                database.logger.warning(
                    "lost the PostgreSQL listener; connecting again",
                    metadata: ["channel": "\(channel)", "error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Cancelled, or the service group is shutting down gracefully.
    static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}

extension PostgresConnection {
    /// Sends `payload` to the listeners of `channel` when the current transaction commits (at once outside one).
    public func notify(_ channel: String, payload: String = "", logger: Logger) async throws {
        _ = try await query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
    }
}
