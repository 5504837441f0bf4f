import Foundation
import PostgresNIO
import ServiceKit

extension PostgresGeoStore {
    func countryCodes(of users: [String]) async throws -> [String: [String]] {
        guard !users.isEmpty else { return [:] }
        return try await read { session in
            let rows = try await session.rows(
                """
                SELECT DISTINCT user_id, country_code FROM pins
                WHERE user_id = ANY(\(users)) AND country_code IS NOT NULL
                """
            ).map { try $0.decode((String, String).self) }
            return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
        }
    }
}
