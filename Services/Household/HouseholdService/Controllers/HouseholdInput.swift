import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Checks of request fields that several routes share, each naming the field as the client sent it.
enum HouseholdInput {
    /// The largest note photo or bill image.
    static let maximumPhotoBytes = 2 << 20
    /// The largest receipt of a shopping trip.
    static let maximumReceiptBytes = 4 << 20

    /// An optional `YYYY-MM-DD` query parameter.
    static func day(_ value: Substring?, field: String) throws -> LocalDay? {
        guard let value else { return nil }
        guard let day = LocalDay(value) else {
            throw HouseholdError.invalidField(field, "must be a day as YYYY-MM-DD.")
        }
        return day
    }

    /// Where a newest-first list (bills, trips) continues: the last row's creation instant and id, as the list wrote
    /// them (`["<seconds since 1970>", "<id>"]`); anything else, a non-finite number included, is 400 `invalid_cursor`.
    static func newestFirstCursor(_ page: PageRequest) throws -> (createdAt: Date, id: String)? {
        guard let parts = try page.decodeCursorParts(2) else { return nil }
        return (try PageCursor.instant(parts[0]), parts[1])
    }

    /// Where the completion history continues: the last completion's day, instant and id
    /// (`["YYYY-MM-DD", "<seconds since 1970>", "<id>"]`); anything else is 400 `invalid_cursor`.
    static func completionCursor(_ page: PageRequest) throws -> (day: String, completedAt: Date, id: String)? {
        guard let parts = try page.decodeCursorParts(3) else { return nil }
        guard LocalDay(parts[0]) != nil else { throw PageCursor.invalid }
        return (parts[0], try PageCursor.instant(parts[1]), parts[2])
    }

    /// A grocery item's name: 1-80 characters that are not all blank.
    static func groceryName(_ text: String) throws -> String {
        let name = try Validate.text(text, field: "name", max: 80)
        guard !Groceries.mergeKey(name).isEmpty else { throw HouseholdError.invalidField("name", "must not be blank.") }
        return name
    }

    /// The raw JPEG, PNG or WebP body of an upload, at most `maximumBytes`, without its metadata, with its strong
    /// entity tag.
    static func image(_ request: Request, maximumBytes: Int) async throws -> StoredBytes {
        let body = try await request.body.collect(upTo: maximumBytes)
        let image = try await ImageKind.clean(body.readableBytesView, maximumBytes: maximumBytes)
        return StoredBytes(bytes: image.bytes, mediaType: image.mediaType, tag: EntityTag(of: image.bytes))
    }
}
