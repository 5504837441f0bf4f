import Foundation
import GRDB
import Synchronization

/// Records whose Swift properties are camelCase and whose columns are snake_case, the platform's SQL style.
public protocol SnakeCaseColumns: FetchableRecord, EncodableRecord {}

extension SnakeCaseColumns {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { SnakeCaseNames.decoding }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

/// GRDB's `.convertFromSnakeCase`, with each column name converted once.
///
/// GRDB maps every column of every fetched row to its property name; converting the names anew for each row was
/// the largest single cost of decoding a record in profiles (a page of 50 rows converts 500 names).
enum SnakeCaseNames {
    static let decoding = DatabaseColumnDecodingStrategy.custom { column in Key(stringValue: camelCase(column)) }

    private static let converted = Mutex<[String: String]>([:])

    static func camelCase(_ column: String) -> String {
        if let name = converted.withLock({ $0[column] }) { return name }
        let name = convert(column)
        converted.withLock { $0[column] = name }
        return name
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
