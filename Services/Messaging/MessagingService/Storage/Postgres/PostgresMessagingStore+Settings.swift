import Foundation
import PostgresNIO
import ServiceKit

/// Members' messaging settings.
extension PostgresMessagingStore {
    func sharesReadReceipts(_ userIDs: [String]) async throws -> [String: Bool] {
        let storable = userIDs.filter { !$0.utf8.contains(0) }
        var shares = Dictionary(userIDs.map { ($0, true) }) { first, _ in first }
        guard !storable.isEmpty else { return shares }
        let rows = try await read { session in
            try await session.rows(
                "SELECT user_id, share_read_receipts FROM reader_settings WHERE user_id = ANY(\(storable))")
        }
        for row in rows {
            let (userID, share) = try row.decode((String, Bool).self)
            shares[userID] = share
        }
        return shares
    }

    func setSharesReadReceipts(_ share: Bool, for userID: String) async throws {
        try Self.requireStorable(userID)
        _ = try await write { session in
            try await session.execute(
                """
                INSERT INTO reader_settings (user_id, share_read_receipts) VALUES (\(userID), \(share))
                ON CONFLICT (user_id) DO UPDATE SET share_read_receipts = excluded.share_read_receipts
                """)
        }
    }
}
