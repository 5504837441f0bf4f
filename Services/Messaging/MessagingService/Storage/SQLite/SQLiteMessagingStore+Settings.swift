import Foundation
import GRDB

/// Members' messaging settings.
extension SQLiteMessagingStore {
    func sharesReadReceipts(_ userIDs: [String]) async throws -> [String: Bool] {
        try await read { db in
            var shares = Dictionary(userIDs.map { ($0, true) }) { first, _ in first }
            for userID in userIDs {
                if let share = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT share_read_receipts FROM reader_settings WHERE user_id = ?"),
                    arguments: [userID])
                {
                    shares[userID] = share
                }
            }
            return shares
        }
    }

    func setSharesReadReceipts(_ share: Bool, for userID: String) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO reader_settings (user_id, share_read_receipts) VALUES (?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET share_read_receipts = excluded.share_read_receipts
                    """, arguments: [userID, share])
        }
    }
}
