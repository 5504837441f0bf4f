import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// A bill's optional image: any member may attach, replace or remove it, as any member may edit the bill.
extension SQLiteHouseholdStore {
    func setImage(of billID: String, in householdID: String, by userID: String, _ image: StoredBytes, now: Date)
        async throws
    {
        try await write { db in
            try Self.billOfMember(db, billID, householdID, userID)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO bill_images (bill_id, bytes, type, etag, uploaded_by, uploaded_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [billID, image.bytes, image.mediaType, image.tag.description, userID, now])
        }
    }

    func image(of billID: String, in householdID: String, asMember userID: String) async throws -> StoredBytes? {
        try await read { db in
            try Self.billOfMember(db, billID, householdID, userID)
            return try Row.fetchOne(
                db.cachedStatement(sql: "SELECT bytes, type, etag FROM bill_images WHERE bill_id = ?"),
                arguments: [billID]
            ).map { StoredBytes(bytes: $0["bytes"], mediaType: $0["type"], tag: EntityTag(stored: $0["etag"])) }
        }
    }

    /// Removes the image; false when the bill had none.
    func deleteImage(of billID: String, in householdID: String, by userID: String) async throws -> Bool {
        try await write { db in
            try Self.billOfMember(db, billID, householdID, userID)
            try db.execute(sql: "DELETE FROM bill_images WHERE bill_id = ?", arguments: [billID])
            return db.changesCount > 0
        }
    }

    /// Checks that `userID` is a member and the bill is their household's; 404 otherwise.
    private static func billOfMember(_ db: Database, _ billID: String, _ householdID: String, _ userID: String)
        throws
    {
        _ = try members(db, householdID, asMember: userID)
        _ = try bill(db, billID, householdID)
    }
}
