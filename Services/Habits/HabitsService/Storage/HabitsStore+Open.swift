import Logging
import ServiceKit

/// The habits store at `location`: PostgreSQL when `DATABASE_URL` names a server (any number of replicas may share
/// it), else SQLite (one process). Either way the schema is brought up to date before this returns.
func openHabitsStore(_ location: DatabaseLocation, logger: Logger) async throws -> any HabitsStore {
    switch location {
    case .postgres(let url): try await PostgresHabitsStore.open(url, logger: logger)
    case .file, .inMemory: try SQLiteHabitsStore(location)
    }
}
