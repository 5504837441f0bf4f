import Foundation

/// Finds where a JSON body fails to decode when Foundation's decoder does not say.
///
/// On Linux, `JSONDecoder` reports a number that does not fit its field (`100.5` for an `Int`) or a malformed date
/// as "data corrupted" at the top of the document, as if the JSON itself were broken. This decodes the same body
/// again through a small decoder that tracks the coding path, only on that error path, so the problem can name the
/// field. It agrees with `PlatformJSON.decoder` on what is valid: ISO 8601 dates, numbers only into numbers.
enum DecodingErrorLocator {
    /// The error decoding `type` from `data` with its coding path, or `nil` when the body is not JSON at all or
    /// decodes here after all.
    static func locate<T: Decodable>(_ type: T.Type, in data: Data) -> DecodingError? {
        guard let tree = try? PlatformJSON.decoder.decode(JSONValue.self, from: data) else { return nil }
        do {
            _ = try T(from: TreeDecoder(value: tree, codingPath: []))
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            return nil
        }
    }
}

/// A JSON document as values; integers kept apart from other numbers so that range errors can be told.
enum JSONValue: Decodable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: ""))
        }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: ""))
        }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    /// Decodes `type` from `value`, handling the leaves itself and everything else through `type`'s own `init`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        let single = Single(value: value, codingPath: path)
        switch type {
        case is Bool.Type: return try single.decode(Bool.self) as! T
        case is String.Type: return try single.decode(String.self) as! T
        case is Double.Type: return try single.decode(Double.self) as! T
        case is Float.Type: return try single.decode(Float.self) as! T
        case let integer as any FixedWidthInteger.Type:
            func decode<I: FixedWidthInteger>(_ type: I.Type) throws -> I { try single.integer(type) }
            return try decode(integer) as! T
        case is Date.Type:
            let text = try single.decode(String.self)
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date as! T
        default: return try T(from: TreeDecoder(value: value, codingPath: path))
        }
    }
}

private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct Keyed<K: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    var allKeys: [K] { members.keys.compactMap { K(stringValue: $0) } }

    func contains(_ key: K) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: K) throws -> Bool {
        if case .null = members[key.stringValue] ?? .null { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T { try decode(type, key) }
    func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: K) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: K) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: K) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: K) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { try decode(type as UInt16.Type, key) }
    func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { try decode(type as UInt32.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { try decode(type as UInt64.Type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: K) throws -> T {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: ""))
        }
        return try TreeDecoder.decode(type, from: value, at: codingPath + [key])
    }

    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
        try TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(value: .object(members), codingPath: codingPath) }
    func superDecoder(forKey key: K) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [Key(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: path, debugDescription: "No more elements."))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) }

    private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try TreeDecoder.decode(type, from: value, at: path)
    }

    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
        let (value, path) = try next()
        return try TreeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try TreeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return TreeDecoder(value: value, codingPath: path)
    }
}

private struct Single: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: ""))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: ""))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let number):
            if let fitting = I(exactly: number) { return fitting }
        case .number: break
        default: throw mismatch(type)
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "Parsed JSON number does not fit in \(type)."))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try TreeDecoder.decode(type, from: value, at: codingPath) }
}
