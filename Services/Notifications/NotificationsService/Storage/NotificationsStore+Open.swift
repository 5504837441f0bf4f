import Logging
import ServiceKit

/// The store `location` names: PostgreSQL for a `DATABASE_URL`, SQLite (the default) otherwise. Stored stream events
/// reach `hub` once committed.
func openNotificationsStore(_ location: DatabaseLocation, hub: EventHub, logger: Logger) async throws
    -> any NotificationsStore
{
    switch location {
    case .postgres(let url): try await PostgresNotificationsStore.open(url, hub: hub, logger: logger)
    case .file, .inMemory: try SQLiteNotificationsStore(location) { events in events.forEach(hub.publish) }
    }
}
