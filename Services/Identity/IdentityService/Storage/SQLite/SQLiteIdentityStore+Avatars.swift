import Foundation
import GRDB
import PlatformKit

// Profile pictures, kept apart from users so user lookups never load image bytes.
extension SQLiteIdentityStore {
    func setAvatar(_ avatar: AvatarRecord, now: Date) async throws {
        try await write { db in
            try avatar.save(db)
            try db.execute(
                sql: "UPDATE users SET avatar_etag = ?, updated_at = ? WHERE id = ?",
                arguments: [avatar.etag, now, avatar.userId])
        }
    }

    /// Removes the picture; `false` when there was none.
    func deleteAvatar(userID: String, now: Date) async throws -> Bool {
        try await write { db in
            let deleted = try AvatarRecord.deleteOne(db, key: userID)
            try db.execute(
                sql: "UPDATE users SET avatar_etag = NULL, updated_at = ? WHERE id = ?", arguments: [now, userID])
            return deleted
        }
    }

    func avatar(userID: String) async throws -> AvatarRecord? {
        try await read { db in try AvatarRecord.fetchOne(db, key: userID) }
    }
}
