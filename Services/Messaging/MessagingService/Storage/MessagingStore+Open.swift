import Logging
import ServiceKit

/// The store `location` names: PostgreSQL for a `DATABASE_URL`, SQLite (the default) otherwise.
func openMessagingStore(_ location: DatabaseLocation, logger: Logger) async throws -> any MessagingStore {
    switch location {
    case .postgres(let url): try await PostgresMessagingStore.open(url, logger: logger)
    default: try SQLiteMessagingStore(location)
    }
}
