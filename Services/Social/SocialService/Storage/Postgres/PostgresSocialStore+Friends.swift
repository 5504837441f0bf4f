import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresSocialStore {
    func sendFriendRequest(
        from sender: String, to recipient: String, now: Date, notices: ChangeNotices<FriendRequestOutcome>?
    ) async throws -> FriendRequestOutcome {
        guard PostgresText.fits(sender, recipient) else { throw SocialError.notFound("The user") }
        let outcome = try await write { db in
            let outcome = try await Self.sendFriendRequest(db, from: sender, to: recipient, now: now)
            try await notices?.record(outcome, in: db)
            return outcome
        }
        await notices?.committed(outcome)
        return outcome
    }

    private static func sendFriendRequest(_ db: PostgresSession, from sender: String, to recipient: String, now: Date)
        async throws -> FriendRequestOutcome
    {
        try await db.lockPair(sender, recipient)
        let relationship = try await Self.relationship(db, sender, recipient)
        if let refusal = SocialRules.refuseFriendRequest(from: sender, to: recipient, relationship) {
            throw refusal
        }
        let at = now.millisecondsSince1970
        if relationship.friendRequestReceived,
            let theirs = try await db.first(
                """
                UPDATE friend_requests SET status = \(FriendRequestAnswer.accept.status), responded_at = \(at)
                WHERE sender_id = \(recipient) AND recipient_id = \(sender) AND status = 'pending'
                RETURNING \(unescaped: FriendRequestRecord.postgresColumns)
                """, FriendRequestRecord.init(postgres:))
        {
            try await Self.befriend(db, sender, recipient, now)
            return .becameFriends(theirs)
        }
        let request = FriendRequestRecord(
            id: UUID().uuidString.lowercased(), senderId: sender, recipientId: recipient, status: "pending",
            createdAt: Date(millisecondsSince1970: at))
        try await db.execute(
            """
            INSERT INTO friend_requests (id, sender_id, recipient_id, status, created_at)
            VALUES (\(request.id), \(sender), \(recipient), 'pending', \(at))
            """)
        return .sent(request)
    }

    func answer(
        _ requestID: String, by userID: String, _ answer: FriendRequestAnswer, now: Date,
        notices: ChangeNotices<FriendRequestRecord>?
    ) async throws -> FriendRequestRecord {
        guard PostgresText.fits(requestID, userID) else { throw SocialError.notFound("The friend request") }
        return try await write(reporting: notices) { db in
            let select: PostgresQuery =
                "SELECT \(unescaped: FriendRequestRecord.postgresColumns) FROM friend_requests WHERE id = \(requestID)"
            guard let found = try await db.first(select, FriendRequestRecord.init(postgres:)),
                answer == .cancel ? found.senderId == userID : found.recipientId == userID
            else { throw SocialError.notFound("The friend request") }
            // The pair's lock, then the request as the last writer left it.
            try await db.lockPair(found.senderId, found.recipientId)
            guard let request = try await db.first(select, FriendRequestRecord.init(postgres:)) else {
                throw SocialError.notFound("The friend request")
            }
            guard request.status == "pending" else { throw SocialError.requestNotPending(status: request.status) }
            let at = now.millisecondsSince1970
            guard
                let answered = try await db.first(
                    """
                    UPDATE friend_requests SET status = \(answer.status), responded_at = \(at) WHERE id = \(requestID)
                    RETURNING \(unescaped: FriendRequestRecord.postgresColumns)
                    """, FriendRequestRecord.init(postgres:))
            else { throw SocialError.notFound("The friend request") }
            if answer == .accept { try await Self.befriend(db, request.senderId, request.recipientId, now) }
            return answered
        }
    }

    private static func befriend(_ db: PostgresSession, _ a: String, _ b: String, _ now: Date) async throws {
        let (low, high) = friendshipPair(a, b)
        try await db.execute(
            """
            INSERT INTO friendships (user_low, user_high, created_at)
            VALUES (\(low), \(high), \(now.millisecondsSince1970))
            ON CONFLICT DO NOTHING
            """)
    }

    func pendingRequests(of userID: String, incoming: Bool, after cursor: String?, limit: Int) async throws
        -> [FriendRequestRecord]
    {
        guard PostgresText.fits(userID) else { return [] }
        guard PostgresText.fits(cursor) else { throw PageCursor.invalid }
        let mine = incoming ? "recipient_id" : "sender_id"
        return try await snapshot { db in
            guard let cursor else {
                return try await db.rows(
                    """
                    SELECT \(unescaped: FriendRequestRecord.postgresColumns) FROM friend_requests
                    WHERE \(unescaped: mine) = \(userID) AND status = 'pending'
                    ORDER BY created_at DESC, id DESC LIMIT \(limit)
                    """
                ).map(FriendRequestRecord.init(postgres:))
            }
            // Requests are never deleted (answers change their status), so the last one is still there; only the
            // caller's own requests make a cursor.
            guard
                let last = try await db.first(
                    """
                    SELECT \(unescaped: FriendRequestRecord.postgresColumns) FROM friend_requests WHERE id = \(cursor)
                    """, FriendRequestRecord.init(postgres:)),
                last.senderId == userID || last.recipientId == userID
            else { throw PageCursor.invalid }
            let at = last.createdAt.millisecondsSince1970
            // Keyed on (created_at, id): requests made in the same millisecond keep a stable order.
            return try await db.rows(
                """
                SELECT \(unescaped: FriendRequestRecord.postgresColumns) FROM friend_requests
                WHERE \(unescaped: mine) = \(userID) AND status = 'pending'
                AND (created_at < \(at) OR (created_at = \(at) AND id < \(last.id)))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """
            ).map(FriendRequestRecord.init(postgres:))
        }
    }

    func unfriend(_ userID: String, _ friendID: String) async throws {
        guard PostgresText.fits(userID, friendID) else { throw SocialError.notFound("The friend") }
        try await write { db in
            try await db.lockPair(userID, friendID)
            let (low, high) = friendshipPair(userID, friendID)
            let deleted = try await db.execute(
                "DELETE FROM friendships WHERE user_low = \(low) AND user_high = \(high) RETURNING 1")
            guard deleted > 0 else { throw SocialError.notFound("The friend") }
        }
    }
}
