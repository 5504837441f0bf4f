import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func setImage(of billID: String, in householdID: String, by userID: String, _ image: StoredBytes, now: Date)
        async throws
    {
        try await write(locking: householdID) { db in
            try await db.billOfMember(billID, householdID, userID)
            try await db.execute(
                """
                INSERT INTO bill_images (household_id, bill_id, bytes, type, etag, uploaded_by, uploaded_at)
                VALUES (\(householdID), \(billID), \(image.bytes), \(image.mediaType), \(image.tag.description),
                    \(userID), \(now.storedMilliseconds))
                ON CONFLICT (bill_id) DO UPDATE SET bytes = excluded.bytes, type = excluded.type,
                    etag = excluded.etag, uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at
                """)
        }
    }

    func image(of billID: String, in householdID: String, asMember userID: String) async throws -> StoredBytes? {
        try await write(.repeatableRead) { db in
            try await db.billOfMember(billID, householdID, userID)
            return try await db.namedRow("SELECT bytes, type, etag FROM bill_images WHERE bill_id = \(billID)").map {
                StoredBytes(
                    bytes: try $0.get("bytes"), mediaType: try $0.get("type"), tag: EntityTag(stored: try $0.get("etag")))
            }
        }
    }

    func deleteImage(of billID: String, in householdID: String, by userID: String) async throws -> Bool {
        try await write(locking: householdID) { db in
            try await db.billOfMember(billID, householdID, userID)
            return try await db.execute("DELETE FROM bill_images WHERE bill_id = \(billID) RETURNING 1") > 0
        }
    }
}

extension PostgresSession {
    /// Checks that `userID` is a member and the bill is their household's; 404 otherwise.
    func billOfMember(_ billID: String, _ householdID: String, _ userID: String) async throws {
        _ = try await members(householdID, asMember: userID)
        _ = try await bill(billID, householdID)
    }
}
