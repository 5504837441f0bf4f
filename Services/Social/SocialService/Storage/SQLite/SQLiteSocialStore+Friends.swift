import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteSocialStore {
    func sendFriendRequest(
        from sender: String, to recipient: String, now: Date, notices: ChangeNotices<FriendRequestOutcome>?
    ) async throws -> FriendRequestOutcome {
        let outcome = try await write { db in
            let outcome = try Self.sendFriendRequest(db, from: sender, to: recipient, now: now)
            try notices?.record(outcome, in: db)
            return outcome
        }
        await notices?.committed(outcome)
        return outcome
    }

    private static func sendFriendRequest(_ db: Database, from sender: String, to recipient: String, now: Date)
        throws -> FriendRequestOutcome
    {
        let relationship = try Self.relationship(db, sender, recipient)
        if let refusal = SocialRules.refuseFriendRequest(from: sender, to: recipient, relationship) {
            throw refusal
        }
        typealias Columns = FriendRequestRecord.Columns
        if relationship.friendRequestReceived,
            var theirs = try FriendRequestRecord.filter(
                Columns.senderId == recipient && Columns.recipientId == sender && Columns.status == "pending"
            ).fetchOne(db)
        {
            theirs.status = FriendRequestAnswer.accept.status
            theirs.respondedAt = now
            try theirs.update(db)
            try Self.befriend(db, sender, recipient, now)
            return .becameFriends(theirs)
        }
        let request = FriendRequestRecord(
            id: UUID().uuidString.lowercased(), senderId: sender, recipientId: recipient, status: "pending",
            createdAt: now)
        try request.insert(db)
        return .sent(request)
    }

    /// Accepts or declines (the recipient) or cancels (the sender) a pending request; anyone else gets 404.
    func answer(
        _ requestID: String, by userID: String, _ answer: FriendRequestAnswer, now: Date,
        notices: ChangeNotices<FriendRequestRecord>?
    ) async throws -> FriendRequestRecord {
        try await write(reporting: notices) { db in
            guard var request = try FriendRequestRecord.fetchOne(db, key: requestID),
                answer == .cancel ? request.senderId == userID : request.recipientId == userID
            else { throw SocialError.notFound("The friend request") }
            guard request.status == "pending" else { throw SocialError.requestNotPending(status: request.status) }
            request.status = answer.status
            request.respondedAt = now
            try request.update(db)
            if answer == .accept { try Self.befriend(db, request.senderId, request.recipientId, now) }
            return request
        }
    }

    private static func befriend(_ db: Database, _ a: String, _ b: String, _ now: Date) throws {
        let (low, high) = friendshipPair(a, b)
        try db.execute(
            sql: "INSERT OR IGNORE INTO friendships (user_low, user_high, created_at) VALUES (?, ?, ?)",
            arguments: [low, high, now])
    }

    /// Pending requests to (`incoming`) or from `userID`, newest first, after `cursor` (the id of the previous
    /// page's last request), at most `limit`.
    func pendingRequests(of userID: String, incoming: Bool, after cursor: String?, limit: Int) async throws
        -> [FriendRequestRecord]
    {
        typealias Columns = FriendRequestRecord.Columns
        return try await read { db in
            var request = FriendRequestRecord.filter(
                (incoming ? Columns.recipientId : Columns.senderId) == userID && Columns.status == "pending")
            if let cursor {
                // Requests are never deleted (answers change their status), so the last one is still there;
                // only the caller's own requests make a cursor.
                guard let last = try FriendRequestRecord.fetchOne(db, key: cursor),
                    last.senderId == userID || last.recipientId == userID
                else { throw PageCursor.invalid }
                // Keyed on (created_at, id): requests made in the same instant keep a stable order.
                request = request.filter(
                    Columns.createdAt < last.createdAt || (Columns.createdAt == last.createdAt && Columns.id < last.id))
            }
            return try request.order(Columns.createdAt.desc, Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    func unfriend(_ userID: String, _ friendID: String) async throws {
        try await write { db in
            let (low, high) = friendshipPair(userID, friendID)
            try db.execute(sql: "DELETE FROM friendships WHERE user_low = ? AND user_high = ?", arguments: [low, high])
            guard db.changesCount > 0 else { throw SocialError.notFound("The friend") }
        }
    }
}
