import Foundation
import PostgresNIO
import ServiceKit

/// Reactions to pins. A removed reaction keeps its row (kind NULL), so a friend's second reaction is not news.
extension PostgresGeoStore {
    func setReaction(on pinID: Int64, by user: String, kind: String?, now: Date, notices: ChangeNotices<Bool>?)
        async throws -> Bool
    {
        try await database.write(reporting: notices) { session in
            guard try await session.value("SELECT id FROM pins WHERE id = \(pinID)", as: Int64.self) != nil else {
                throw GeoError.notFound("The pin")
            }
            if let kind,
                try await session.value(
                    """
                    INSERT INTO pin_reactions (pin_id, user_id, kind, reacted_at)
                    VALUES (\(pinID), \(user), \(kind), \(now.storedMilliseconds))
                    ON CONFLICT (pin_id, user_id) DO NOTHING RETURNING pin_id
                    """, as: Int64.self) != nil
            {
                return true
            }
            try await session.execute(
                """
                UPDATE pin_reactions SET kind = \(kind), reacted_at = \(now.storedMilliseconds)
                WHERE pin_id = \(pinID) AND user_id = \(user)
                """)
            return false
        }
    }

    func reactions(on pinID: Int64) async throws -> [PinReaction] {
        try await read { session in
            try await session.rows(
                """
                SELECT user_id, kind FROM pin_reactions WHERE pin_id = \(pinID) AND kind IS NOT NULL
                ORDER BY reacted_at, user_id LIMIT \(PinReactions.listed)
                """
            ).map { row in
                let (user, kind) = try row.decode((String, String).self)
                return PinReaction(userId: user, kind: kind)
            }
        }
    }
}
