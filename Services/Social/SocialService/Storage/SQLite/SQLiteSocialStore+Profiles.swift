import Foundation
import GRDB

extension SQLiteSocialStore {
    /// Stores profile basics fetched from the identity service.
    func save(_ profiles: [ProfileRecord]) async throws {
        guard !profiles.isEmpty else { return }
        try await write { db in
            for profile in profiles { try profile.save(db) }
        }
    }

    func profiles(_ ids: [String]) async throws -> [ProfileRecord] {
        try await read { db in try ProfileRecord.fetchAll(db, keys: ids) }
    }
}
