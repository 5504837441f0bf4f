import Foundation
import GRDB

extension SQLiteGeoStore {
    func countryCodes(of users: [String]) async throws -> [String: [String]] {
        guard !users.isEmpty else { return [:] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT user_id, country_code FROM pins
                        WHERE user_id IN (SELECT value FROM json_each(?)) AND country_code IS NOT NULL
                        """), arguments: [StoredJSON.array(users)])
            return Dictionary(grouping: rows, by: { $0[0] as String }).mapValues { $0.map { $0[1] as String } }
        }
    }
}
