import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// Photos of pins, stored in the database beside their pin (deleted with it).
extension SQLiteGeoStore {
    /// Adds a photo to my pin.
    func addPhoto(_ info: PinPhotoRecord, bytes: Data, by userID: String) async throws {
        try await write { db in
            let owner = try String.fetchOne(
                db.cachedStatement(sql: "SELECT user_id FROM pins WHERE id = ?"), arguments: [info.pinId])
            guard owner == userID else { throw GeoError.notFound("The pin") }
            let count = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM pin_photos WHERE pin_id = ?"), arguments: [info.pinId])
            guard (count ?? 0) < PinLimits.photosPerPin else { throw GeoError.tooManyPhotos }
            try db.execute(
                sql: """
                    INSERT INTO pin_photos (id, pin_id, bytes, media_type, etag, byte_count, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [info.id, info.pinId, bytes, info.mediaType, info.etag, info.byteCount, info.createdAt])
        }
    }

    func photos(of pinID: Int64) async throws -> [PinPhotoRecord] {
        try await read { db in
            try PinPhotoRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, pin_id, media_type, etag, byte_count, created_at FROM pin_photos
                        WHERE pin_id = ? ORDER BY created_at, id
                        """), arguments: [pinID])
        }
    }

    /// A photo's bytes, type and stored tag; a missing one is not found.
    func photo(_ id: String, of pinID: Int64) async throws -> StoredBytes {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT bytes, media_type, etag FROM pin_photos WHERE id = ? AND pin_id = ?"),
                    arguments: [id, pinID])
            else { throw GeoError.notFound("The photo") }
            return StoredBytes(
                bytes: row[PinPhotoRecord.Columns.bytes], mediaType: row[PinPhotoRecord.Columns.mediaType],
                tag: EntityTag(stored: row[PinPhotoRecord.Columns.etag]))
        }
    }

    /// Deletes a photo of my pin.
    func deletePhoto(_ id: String, of pinID: Int64, by userID: String) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    DELETE FROM pin_photos WHERE id = ? AND pin_id IN (SELECT id FROM pins WHERE id = ? AND user_id = ?)
                    """, arguments: [id, pinID, userID])
            guard db.changesCount > 0 else { throw GeoError.notFound("The photo") }
        }
    }
}
