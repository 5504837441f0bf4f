import Foundation
import GRDB
import PlatformKit

/// Photos of pins, stored in the database beside their pin (deleted with it).
extension GeoDatabase {
    static let maximumPhotosPerPin = 10

    /// Adds a photo to my pin.
    func addPhoto(_ info: PhotoInfo, bytes: Data, by userID: String) async throws {
        try await writer.write { db in
            let owner = try String.fetchOne(db, sql: "SELECT user_id FROM pins WHERE id = ?", arguments: [info.pinId])
            guard owner == userID else { throw Problem.notFound("The pin") }
            let count = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM pin_photos WHERE pin_id = ?", arguments: [info.pinId])
            guard (count ?? 0) < Self.maximumPhotosPerPin else {
                throw Problem.conflict("too_many_photos", "A pin has at most \(Self.maximumPhotosPerPin) photos.")
            }
            try db.execute(
                sql: """
                    INSERT INTO pin_photos (id, pin_id, bytes, media_type, etag, byte_count, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [info.id, info.pinId, bytes, info.mediaType, info.etag, info.byteCount, info.createdAt])
        }
    }

    func photos(of pinID: Int64) async throws -> [PhotoInfo] {
        try await writer.read { db in
            try PhotoInfo.fetchAll(
                db,
                sql: """
                    SELECT id, pin_id, media_type, etag, byte_count, created_at FROM pin_photos
                    WHERE pin_id = ? ORDER BY created_at, id
                    """, arguments: [pinID])
        }
    }

    func photo(_ id: String, of pinID: Int64) async throws -> PhotoContent? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT bytes, media_type, etag FROM pin_photos WHERE id = ? AND pin_id = ?",
                arguments: [id, pinID]
            ).map { PhotoContent(bytes: $0[0], mediaType: $0[1], etag: $0[2]) }
        }
    }

    /// Deletes a photo of my pin.
    func deletePhoto(_ id: String, of pinID: Int64, by userID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM pin_photos WHERE id = ? AND pin_id IN (SELECT id FROM pins WHERE id = ? AND user_id = ?)
                    """, arguments: [id, pinID, userID])
            guard db.changesCount > 0 else { throw Problem.notFound("The photo") }
        }
    }
}
