import Foundation
import Logging
import ServiceKit

/// The geo store at `location`: PostgreSQL when `DATABASE_URL` names a server (any number of replicas may share it),
/// else SQLite (one process). Either way the schema is brought up to date, and the `gazetteer` loaded into an empty
/// places table, before this returns.
func openGeoStore(_ location: DatabaseLocation, gazetteer: URL?, logger: Logger) async throws -> any GeoStore {
    switch location {
    case .postgres(let url): try await PostgresGeoStore.open(url, gazetteer: gazetteer, logger: logger)
    case .file, .inMemory: try SQLiteGeoStore(location, gazetteer: gazetteer)
    }
}
