import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

/// Images in messages: uploads waiting for their message, attached by a send, read by members.
extension PostgresMessagingStore {
    func addImage(_ image: MessageImage, bytes: StoredBytes, to conversationID: String, by userID: String, now: Date)
        async throws
    {
        try await write { session in
            _ = try await Self.membership(session, conversationID, userID)
            let since = now.addingTimeInterval(-ChatImages.pendingLifetime).storedPrecision
            let pending =
                try await session.value(
                    """
                    SELECT COUNT(*) FROM message_images
                    WHERE message_id IS NULL AND uploaded_by = \(userID) AND created_at >= \(since)
                    """, as: Int64.self) ?? 0
            guard pending < ChatImages.maximumPending else { throw MessagingError.tooManyPendingImages }
            try await session.execute(
                """
                INSERT INTO message_images
                    (id, conversation_id, uploaded_by, bytes, type, etag, width, height, byte_count, created_at)
                VALUES (\(image.id), \(conversationID), \(userID), \(bytes.bytes), \(bytes.mediaType),
                    \(bytes.tag.description), \(image.width), \(image.height), \(image.byteCount),
                    \(now.storedPrecision))
                """)
        }
    }

    func image(_ imageID: String, in conversationID: String, asMember userID: String) async throws -> StoredBytes {
        try Self.requireStorable(imageID)
        return try await read { session in
            _ = try await Self.membership(session, conversationID, userID)
            return try await Self.storedImage(
                session,
                """
                SELECT i.bytes, i.type, i.etag FROM message_images i
                LEFT JOIN messages m ON m.id = i.message_id
                WHERE i.conversation_id = \(conversationID) AND i.id = \(imageID)
                    AND ((i.message_id IS NULL AND i.uploaded_by = \(userID))
                        OR (m.id IS NOT NULL AND (NOT m.hidden OR m.sender_id = \(userID))))
                """)
        }
    }

    func reportedImage(_ imageID: String, in conversationID: String) async throws -> StoredBytes {
        try Self.requireStorable(imageID, conversationID)
        return try await read { session in
            try await Self.storedImage(
                session,
                """
                SELECT i.bytes, i.type, i.etag FROM message_images i
                WHERE i.conversation_id = \(conversationID) AND i.id = \(imageID) AND EXISTS (
                    SELECT 1 FROM message_reports r WHERE r.message_id = i.message_id AND r.decided_at IS NULL)
                """)
        }
    }

    /// The bytes of the image the query selects (bytes, type, etag), or 404.
    private static func storedImage(_ session: PostgresSession, _ query: PostgresQuery) async throws -> StoredBytes {
        guard let row = try await session.namedRow(query) else { throw MessagingError.notFound("The image") }
        let tag = EntityTag(stored: try row.get("etag"))
        return StoredBytes(bytes: try row.get("bytes"), mediaType: try row.get("type"), tag: tag)
    }

    func sweepUnsentImages(before cutoff: Date) async throws -> Int {
        try await write { session in
            try await session.execute(
                """
                DELETE FROM message_images WHERE message_id IS NULL AND created_at < \(cutoff.storedPrecision)
                RETURNING 1
                """)
        }
    }

    /// Puts the sender's uploads `imageIDs` in message `messageID`, in order; refuses (rolling the send back) any that
    /// is not theirs, not this conversation's or in a message already.
    static func attachImages(
        _ session: PostgresSession, _ imageIDs: [String], to messageID: Int64, in conversationID: String,
        by userID: String
    ) async throws -> [MessageImage] {
        guard !imageIDs.isEmpty else { return [] }
        for (position, imageID) in imageIDs.enumerated() {
            let attached = try await session.execute(
                """
                UPDATE message_images SET message_id = \(messageID), position = \(position)
                WHERE conversation_id = \(conversationID) AND id = \(imageID) AND uploaded_by = \(userID)
                    AND message_id IS NULL
                RETURNING 1
                """)
            guard attached == 1 else { throw ChatImages.notAttachable(imageID) }
        }
        return try await images(session, of: [messageID])[messageID] ?? []
    }

    /// The images of some messages, each message's in the order sent.
    static func images(_ session: PostgresSession, of messageIDs: [Int64]) async throws -> [Int64: [MessageImage]] {
        guard !messageIDs.isEmpty else { return [:] }
        let rows = try await session.rows(
            """
            SELECT message_id, id, type, width, height, byte_count FROM message_images
            WHERE message_id = ANY(\(messageIDs)) ORDER BY message_id, position
            """)
        var images: [Int64: [MessageImage]] = [:]
        for row in rows {
            let (messageID, id, type, width, height, byteCount) = try row.decode(
                (Int64, String, String, Int32, Int32, Int32).self)
            images[messageID, default: []].append(
                MessageImage(
                    id: id, mediaType: type, width: Int(width), height: Int(height), byteCount: Int(byteCount)))
        }
        return images
    }

    /// The messages with their images.
    static func withImages(_ session: PostgresSession, _ messages: [MessageRecord]) async throws -> [MessageRecord] {
        let images = try await images(session, of: messages.map(\.id))
        guard !images.isEmpty else { return messages }
        return messages.map { message in
            var message = message
            message.images = images[message.id] ?? []
            return message
        }
    }
}
