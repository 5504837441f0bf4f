import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// Images in messages: uploads waiting for their message, attached by a send, read by members.
extension SQLiteMessagingStore {
    func addImage(_ image: MessageImage, bytes: StoredBytes, to conversationID: String, by userID: String, now: Date)
        async throws
    {
        try await write { db in
            _ = try Self.membership(db, conversationID, userID)
            let pending =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM message_images
                            WHERE message_id IS NULL AND uploaded_by = ? AND created_at >= ?
                            """), arguments: [userID, now.addingTimeInterval(-ChatImages.pendingLifetime)]) ?? 0
            guard pending < ChatImages.maximumPending else { throw MessagingError.tooManyPendingImages }
            try db.cachedStatement(
                sql: """
                    INSERT INTO message_images
                        (id, conversation_id, uploaded_by, bytes, type, etag, width, height, byte_count, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                image.id, conversationID, userID, bytes.bytes, bytes.mediaType, bytes.tag.description, image.width,
                image.height, image.byteCount, now,
            ])
        }
    }

    func image(_ imageID: String, in conversationID: String, asMember userID: String) async throws -> StoredBytes {
        try await read { db in
            _ = try Self.membership(db, conversationID, userID)
            return try Self.storedImage(
                db,
                sql: """
                    SELECT i.bytes, i.type, i.etag FROM message_images i
                    LEFT JOIN messages m ON m.id = i.message_id
                    WHERE i.id = ? AND i.conversation_id = ?
                        AND ((i.message_id IS NULL AND i.uploaded_by = ?)
                            OR (m.id IS NOT NULL AND (m.hidden = 0 OR m.sender_id = ?)))
                    """, arguments: [imageID, conversationID, userID, userID])
        }
    }

    func reportedImage(_ imageID: String, in conversationID: String) async throws -> StoredBytes {
        try await read { db in
            try Self.storedImage(
                db,
                sql: """
                    SELECT i.bytes, i.type, i.etag FROM message_images i
                    WHERE i.id = ? AND i.conversation_id = ? AND EXISTS (
                        SELECT 1 FROM message_reports r WHERE r.message_id = i.message_id AND r.decided_at IS NULL)
                    """, arguments: [imageID, conversationID])
        }
    }

    /// The bytes of the image the statement selects (bytes, type, etag), or 404.
    private static func storedImage(_ db: Database, sql: String, arguments: StatementArguments) throws -> StoredBytes {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) else {
            throw MessagingError.notFound("The image")
        }
        return StoredBytes(bytes: row[0], mediaType: row[1], tag: EntityTag(stored: row[2]))
    }

    func sweepUnsentImages(before cutoff: Date) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM message_images WHERE message_id IS NULL AND created_at < ?", arguments: [cutoff])
            return db.changesCount
        }
    }

    /// Puts the sender's uploads `imageIDs` in message `messageID`, in order; refuses (rolling the send back) any that
    /// is not theirs, not this conversation's or in a message already.
    static func attachImages(
        _ db: Database, _ imageIDs: [String], to messageID: Int64, in conversationID: String, by userID: String
    ) throws -> [MessageImage] {
        guard !imageIDs.isEmpty else { return [] }
        for (position, imageID) in imageIDs.enumerated() {
            try db.cachedStatement(
                sql: """
                    UPDATE message_images SET message_id = ?, position = ?
                    WHERE id = ? AND conversation_id = ? AND uploaded_by = ? AND message_id IS NULL
                    """
            ).execute(arguments: [messageID, position, imageID, conversationID, userID])
            guard db.changesCount == 1 else { throw ChatImages.notAttachable(imageID) }
        }
        return try images(db, of: [messageID])[messageID] ?? []
    }

    /// The images of some messages, each message's in the order sent.
    static func images(_ db: Database, of messageIDs: [Int64]) throws -> [Int64: [MessageImage]] {
        guard !messageIDs.isEmpty else { return [:] }
        // Ids are integers: listing them in the statement is safe, and one statement serves a page of any length.
        let ids = messageIDs.map(String.init).joined(separator: ",")
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT message_id, id, type, width, height, byte_count FROM message_images
                WHERE message_id IN (\(ids)) ORDER BY message_id, position
                """)
        return Dictionary(grouping: rows, by: { $0[0] as Int64 }).mapValues { rows in
            rows.map { MessageImage(id: $0[1], mediaType: $0[2], width: $0[3], height: $0[4], byteCount: $0[5]) }
        }
    }

    /// The messages with their images.
    static func withImages(_ db: Database, _ messages: [MessageRecord]) throws -> [MessageRecord] {
        let images = try images(db, of: messages.map(\.id))
        guard !images.isEmpty else { return messages }
        return messages.map { message in
            var message = message
            message.images = images[message.id] ?? []
            return message
        }
    }
}
