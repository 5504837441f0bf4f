import Foundation
import GRDB
import TestSupport
import Testing

@testable import NotificationsService

/// Notifications, read column by column on every inbox page, decode as their `Codable` conformance would.
@Suite struct RecordDecodingTests {
    @Test func notificationsDecodeByColumnAsByCodable() async throws {
        let database = try SQLiteNotificationsStore(.inMemory) { _ in }
        let now = Date(timeIntervalSince1970: 1_795_000_000.75)
        try await database.write { db in
            for (id, readAt) in [("n1", now.addingTimeInterval(30)), ("n2", nil)] {
                try NotificationRecord(
                    id: id, recipientId: "ann", kind: "social.friend_request", text: "Bob wants to be your friend 😀",
                    link: "/v1/social/friend-requests", producer: "social", idempotencyKey: "key-\(id)",
                    createdAt: now, readAt: readAt
                ).insert(db)
            }
        }
        let decoded = try await database.read { db in
            try expectDecodedAsCodableWould(NotificationRecord.self, db, "SELECT * FROM notifications")
        }
        #expect(decoded == 2)
        // And through the inbox's own read, newest first.
        let inbox = try await database.notifications(of: "ann", after: nil, limit: 10, unreadOnly: false)
        #expect(inbox.map(\.id) == ["n2", "n1"])
        #expect(inbox[1].readAt == now.addingTimeInterval(30) && inbox[0].readAt == nil && inbox[0].number != nil)
        #expect(inbox[0].idempotencyKey == "key-n2" && inbox[0].producer == "social")
    }
}
