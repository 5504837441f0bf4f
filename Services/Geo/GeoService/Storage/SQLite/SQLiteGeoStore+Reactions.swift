import Foundation
import GRDB
import ServiceKit

/// Reactions to pins. A removed reaction keeps its row (kind NULL), so a friend's second reaction is not news.
extension SQLiteGeoStore {
    func setReaction(on pinID: Int64, by user: String, kind: String?, now: Date, notices: ChangeNotices<Bool>?)
        async throws -> Bool
    {
        try await write(reporting: notices) { db in
            guard try PinRecord.fetchOne(db, key: pinID) != nil else { throw GeoError.notFound("The pin") }
            if let kind {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO pin_reactions (pin_id, user_id, kind, reacted_at) VALUES (?, ?, ?, ?)",
                    arguments: [pinID, user, kind, now])
                if db.changesCount > 0 { return true }
            }
            try db.execute(
                sql: "UPDATE pin_reactions SET kind = ?, reacted_at = ? WHERE pin_id = ? AND user_id = ?",
                arguments: [kind, now, pinID, user])
            return false
        }
    }

    func reactions(on pinID: Int64) async throws -> [PinReaction] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id, kind FROM pin_reactions WHERE pin_id = ? AND kind IS NOT NULL
                        ORDER BY reacted_at, user_id LIMIT ?
                        """), arguments: [pinID, PinReactions.listed]
            ).map { PinReaction(userId: $0[0], kind: $0[1]) }
        }
    }
}
