import Logging
import ServiceKit

/// The household store at `location`: PostgreSQL when `DATABASE_URL` names a server (any number of replicas may share
/// it), else SQLite (one process). Either way the schema is brought up to date before this returns.
func openHouseholdStore(_ location: DatabaseLocation, logger: Logger) async throws -> any HouseholdStore {
    switch location {
    case .postgres(let url): try await PostgresHouseholdStore.open(url, logger: logger)
    case .file, .inMemory: try SQLiteHouseholdStore(location)
    }
}
