import Logging
import ServiceKit

/// Opens the identity store `location` names: PostgreSQL for a `DATABASE_URL`, else SQLite (a file, or in memory
/// for tests), its schema brought up to date either way.
func openIdentityStore(_ location: DatabaseLocation, logger: Logger) async throws -> any IdentityStore {
    switch location {
    case .postgres(let url): try await PostgresIdentityStore.open(url, logger: logger)
    case .file, .inMemory: try SQLiteIdentityStore(location)
    }
}
