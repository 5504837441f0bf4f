import Foundation
import GRDB

/// Records whose Swift properties are camelCase and whose columns are snake_case, the platform's SQL style.
public protocol SnakeCaseColumns: FetchableRecord, EncodableRecord {}

extension SnakeCaseColumns {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { SnakeCaseNames.decoding }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

extension SnakeCaseColumns where Self: Decodable {
    /// Decodes the record with ``SnakeCaseRowDecoder``, or with GRDB's decoder when the record needs more than
    /// that one reproduces (and for the error, when the row does not fit the record).
    public init(row: Row) throws {
        let decoder = SnakeCaseRowDecoder<Self>(row: row)
        if let record = try? Self(from: decoder), !decoder.notReproduced.isSet {
            self = record
        } else {
            self = try FetchableRecordDecoder().decode(Self.self, from: row)
        }
    }
}

/// Decodes a record whose properties are all plain column values straight from its row, each property's column
/// found by its snake_case name: what GRDB's decoder answers for such a record, without what makes that one slow
/// (for every row it converts every column's name and builds a dictionary of them before reading a value: 7 to
/// 20% of a hot read's CPU in the services, docs/architecture.md, "Why the hot paths look this way").
///
/// It reads a key only when its name is ASCII letters starting lowercase (so snake_case and GRDB's conversion back
/// are exact inverses), its column is in the row, and its type is a database value (`Date` and `Data` with GRDB's
/// default strategies). Anything else (a JSON column, a scope, a missing column, a custom container) throws or
/// marks `notReproduced`, and ``SnakeCaseColumns/init(row:)`` asks GRDB instead.
struct SnakeCaseRowDecoder<Record: FetchableRecord>: Decoder {
    /// Set when the record asked something this decoder could only answer as GRDB might not.
    final class Flag: @unchecked Sendable {
        // One decoding on one thread sets and reads it.
        var isSet = false
    }

    struct NotReproduced: Error {}

    let row: Row
    let notReproduced = Flag()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row, notReproduced: notReproduced))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotReproduced() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotReproduced() }

    struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        let notReproduced: Flag
        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            notReproduced.isSet = true
            return []
        }

        func contains(_ key: Key) -> Bool {
            if let column = SnakeCaseNames.snakeCase(key.stringValue), row.hasColumn(column) { return true }
            notReproduced.isSet = true
            return false
        }

        /// The key's column. Whether the row has it is left to the read: GRDB's `decode(_:forColumn:)` throws for
        /// a missing column, except for an optional, whose `nil` is checked (``present(_:_:)``).
        private func column(_ key: Key) throws -> String {
            guard let column = SnakeCaseNames.snakeCase(key.stringValue) else { throw NotReproduced() }
            return column
        }

        /// `value`, unless it is `nil` for want of a column: GRDB's decoder would then look for a scope of that name.
        private func present<Wrapped>(_ value: Wrapped?, _ column: String) throws -> Wrapped? {
            if value == nil, !row.hasColumn(column) { throw NotReproduced() }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            try row.decode(DatabaseValue.self, forColumn: column(key)).isNull
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key) }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalValue(key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optionalValue(key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optionalValue(key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalValue(key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalValue(key) }

        /// GRDB's own reading of a column for a record: the statement's value converted by the type.
        private func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> Value {
            try row.decode(Value.self, forColumn: column(key))
        }

        private func optionalValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws
            -> Value?
        {
            let column = try column(key)
            return try present(row.decode(Value?.self, forColumn: column), column)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decodeConvertible(T.self, column(key))
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let column = try column(key)
            return try present(decodeConvertible(T?.self, column), column)
        }

        /// A value GRDB would read as a database value, as it reads it; anything else is not reproduced.
        private func decodeConvertible<T>(_ type: T.Type, _ column: String) throws -> T {
            if T.self == Date.self || T.self == Date?.self {
                guard case .deferredToDate = Record.databaseDateDecodingStrategy(for: column) else {
                    throw NotReproduced()
                }
            } else if T.self == Data.self || T.self == Data?.self {
                guard case .deferredToData = Record.databaseDataDecodingStrategy(for: column) else {
                    throw NotReproduced()
                }
            }
            // Dates the fast way, to the same bits (``StoredDate``).
            if T.self == Date.self { return try row.decodeDate(forColumn: Column(column)) as! T }
            if T.self == Date?.self { return try row.decodeDateIfPresent(forColumn: Column(column)) as! T }
            if let convertible = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
                return try read(convertible, column) as! T
            }
            guard let convertible = T.self as? any DatabaseValueConvertible.Type else { throw NotReproduced() }
            return try read(convertible, column) as! T
        }

        private func read<Value: DatabaseValueConvertible & StatementColumnConvertible>(
            _ type: Value.Type, _ column: String
        ) throws -> Value {
            try row.decode(Value.self, forColumn: column)
        }

        private func read<Value: DatabaseValueConvertible>(_ type: Value.Type, _ column: String) throws -> Value {
            try row.decode(Value.self, forColumn: column)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw NotReproduced() }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotReproduced() }

        func superDecoder() throws -> any Decoder { throw NotReproduced() }

        func superDecoder(forKey key: Key) throws -> any Decoder { throw NotReproduced() }
    }
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

    /// `displayName` → `display_name`, the exact inverse of ``camelCase(_:)`` for names of ASCII letters starting
    /// lowercase; `nil` for any other name (``SnakeCaseRowDecoder`` leaves those to GRDB).
    static func snakeCase(_ name: String) -> String? {
        var uppercase = 0
        for (offset, byte) in name.utf8.enumerated() {
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { continue }
            guard offset > 0, byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") else { return nil }
            uppercase += 1
        }
        if uppercase == 0 { return name.isEmpty ? nil : name }
        return String(unsafeUninitializedCapacity: name.utf8.count + uppercase) { buffer in
            var count = 0
            for byte in name.utf8 {
                if byte < UInt8(ascii: "a") {
                    buffer[count] = UInt8(ascii: "_")
                    buffer[count + 1] = byte + 32
                    count += 2
                } else {
                    buffer[count] = byte
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
