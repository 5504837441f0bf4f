import Foundation
import GRDB

/// Records whose Swift properties are camelCase and whose columns are snake_case, the platform's SQL style.
public protocol SnakeCaseColumns: FetchableRecord, EncodableRecord {}

extension SnakeCaseColumns {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { SnakeCaseNames.decoding }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

/// GRDB's `.convertFromSnakeCase`, without Foundation for the platform's plain column names.
///
/// GRDB maps every column of every fetched row to its property name; its conversion (split, `capitalized`, join)
/// was the largest single cost of decoding a record in profiles (a page of 50 rows converts 500 names).
enum SnakeCaseNames {
    static let decoding = DatabaseColumnDecodingStrategy.custom { column in Key(stringValue: camelCase(column)) }

    /// `user_id` → `userId` in one pass over the bytes when the name is lowercase ASCII letters in words joined by
    /// single underscores; any other name (digits too: `capitalized` has its own idea of words) the general
    /// conversion makes.
    static func camelCase(_ column: String) -> String {
        let bytes = column.utf8
        var underscores = 0
        var previous = UInt8(ascii: "_")
        for byte in bytes {
            if byte == UInt8(ascii: "_") {
                // Leading, doubled or trailing underscores (checked below) take the general path.
                if previous == UInt8(ascii: "_") { return convert(column) }
                underscores += 1
            } else if byte < UInt8(ascii: "a") || byte > UInt8(ascii: "z") {
                return convert(column)
            }
            previous = byte
        }
        if underscores == 0 { return column }
        if previous == UInt8(ascii: "_") { return convert(column) }
        return String(unsafeUninitializedCapacity: bytes.count - underscores) { buffer in
            var count = 0
            var capitalize = false
            for byte in bytes {
                if byte == UInt8(ascii: "_") {
                    capitalize = true
                } else {
                    buffer[count] = capitalize ? byte - 32 : byte
                    capitalize = false
                    count += 1
                }
            }
            return count
        }
    }

    /// The conversion Foundation's and GRDB's `convertFromSnakeCase` make: leading and trailing underscores kept,
    /// the words between them joined, the first lowercased and the others capitalized.
    static func convert(_ column: String) -> String {
        guard let first = column.firstIndex(where: { $0 != "_" }) else { return column }
        let last = column.lastIndex(where: { $0 != "_" })!
        let words = column[first...last].split(separator: "_")
        guard words.count > 1 else { return column }
        let joined = words[0].lowercased() + words.dropFirst().map { String($0).capitalized }.joined()
        return String(column[..<first]) + joined + String(column[column.index(after: last)...])
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
