import Logging
import ServiceKit

/// The social store at `location`: PostgreSQL when `DATABASE_URL` names a server (any number of replicas may share
/// it), else SQLite (one process). Either way the schema is brought up to date before this returns.
func openSocialStore(_ location: DatabaseLocation, logger: Logger) async throws -> any SocialStore {
    switch location {
    case .postgres(let url): try await PostgresSocialStore.open(url, logger: logger)
    case .file, .inMemory: try SQLiteSocialStore(location)
    }
}
