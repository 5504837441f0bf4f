import Foundation
import Logging
import ServiceKit

/// The geo store at `location`: PostgreSQL when `DATABASE_URL` names a server (any number of replicas may share it),
/// else SQLite (one process). Either way the schema is brought up to date, and the `gazetteer` file loaded (unless the
/// places came from that same file: ``GazetteerFile``), before this returns.
func openGeoStore(_ location: DatabaseLocation, gazetteer: URL?, logger: Logger) async throws -> any GeoStore {
    switch location {
    case .postgres(let url): try await PostgresGeoStore.open(url, gazetteer: gazetteer, logger: logger)
    case .file, .inMemory: try await SQLiteGeoStore.open(location, gazetteer: gazetteer)
    }
}
