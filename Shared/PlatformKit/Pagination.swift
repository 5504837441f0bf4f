import Foundation

/// The `limit` and `cursor` a list route was asked for, already validated.
public struct PageRequest: Sendable, Equatable {
    /// How many items to return (1 ... `maximumLimit`).
    public var limit: Int
    /// The opaque position to continue after, if any.
    public var cursor: String?

    /// The page size when the client names none.
    public static let defaultLimit = 20
    /// The hard upper bound on `limit`.
    public static let maximumLimit = 100

    /// Parses `limit` and `cursor` query values; a bad limit is a 400 problem.
    public init(limit: String?, cursor: String?) throws {
        if let limit {
            guard let value = Int(limit), (1...Self.maximumLimit).contains(value) else {
                throw Problem.badRequest(
                    "invalid_limit", "limit must be a whole number from 1 to \(Self.maximumLimit).")
            }
            self.limit = value
        } else {
            self.limit = Self.defaultLimit
        }
        self.cursor = cursor?.isEmpty == true ? nil : cursor
    }

    /// Decodes the cursor into the key it was made from; a cursor that does not decode is a 400 problem.
    public func decodeCursor<Key: Decodable>(as key: Key.Type) throws -> Key? {
        guard let cursor else { return nil }
        return try PageCursor.decode(cursor, as: Key.self)
    }

    /// Decodes a cursor made of `count` texts (a list's sort keys written as strings); anything else is a 400 problem.
    /// Numbers among them are read with ``PageCursor/number(_:in:)`` or ``PageCursor/instant(_:)``.
    public func decodeCursorParts(_ count: Int) throws -> [String]? {
        guard let parts = try decodeCursor(as: [String].self) else { return nil }
        guard parts.count == count else { throw PageCursor.invalid }
        return parts
    }

    /// The highest offset an offset cursor may carry; lists that page by offset are far shorter.
    public static let maximumOffset = 1_000_000

    /// The position of a list paged by offset (0 without a cursor); out of 0 ... `maximumOffset` is a 400 problem,
    /// so `offset + limit` cannot overflow however the cursor was forged.
    public func offset() throws -> Int {
        guard let key = try decodeCursor(as: OffsetCursor.self) else { return 0 }
        guard (0...Self.maximumOffset).contains(key.offset) else { throw PageCursor.invalid }
        return key.offset
    }
}

/// The key of a list paged by offset; ``PageRequest/offset()`` reads it back.
public struct OffsetCursor: Codable, Sendable, Equatable {
    /// How many items earlier pages held.
    public var offset: Int

    /// A key for the position after `offset` items.
    public init(offset: Int) {
        self.offset = offset
    }

    /// The cursor of the page after one that began at `offset` and held `count` items, or `nil` when `total`
    /// items leave none.
    public static func next(after offset: Int, count: Int, total: Int) -> String? {
        offset + count < total ? PageCursor.encode(OffsetCursor(offset: offset + count)) : nil
    }
}

/// One page of a list: the items and where the next page starts (`nil` at the end).
public struct Page<Item: Encodable & Sendable>: Encodable, Sendable {
    /// The items of this page.
    public var items: [Item]
    /// The cursor to pass for the next page, or `nil` when there is none.
    public var nextCursor: String?

    /// Creates a page from items and the cursor of the next page (for lists that know it otherwise, e.g. by offset).
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// Creates a page from items fetched with one extra row: the extra row only says that more exist.
    public init<Key: Encodable>(fetched: [Item], limit: Int, key: (Item) -> Key) {
        if fetched.count > limit {
            self.items = Array(fetched.prefix(limit))
            self.nextCursor = items.last.map { PageCursor.encode(key($0)) }
        } else {
            self.items = fetched
            self.nextCursor = nil
        }
    }
}

/// Opaque cursors: a small key encoded as base64url JSON, so clients cannot depend on its shape.
public enum PageCursor {
    /// Encodes a key as an opaque cursor string.
    public static func encode(_ key: some Encodable) -> String {
        Data((try? PlatformJSONWriter.encode(key)) ?? []).base64URLEncoded
    }

    /// Decodes a cursor string made by ``encode(_:)``; anything else is a 400 problem.
    public static func decode<Key: Decodable>(_ cursor: String, as key: Key.Type) throws -> Key {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard cursor.count <= 512, let data = Data(base64Encoded: base64), hasOnlyFiniteNumbers(data),
            let key = try? JSONDecoder().decode(Key.self, from: data)
        else {
            throw invalid
        }
        return key
    }

    /// A number a cursor carries as decimal text (`"1767225600.5"`): finite and within `range`, else a 400 problem.
    /// Swift's `Double` also reads `inf`, `nan`, hexadecimal and `1e999` (as infinity), which no list ever wrote.
    public static func number(_ text: String, in range: ClosedRange<Double>) throws -> Double {
        guard text.utf8.count <= 32, text.utf8.allSatisfy({ decimalBytes.contains($0) }), let value = Double(text),
            value.isFinite, range.contains(value)
        else {
            throw invalid
        }
        return value
    }

    private static let decimalBytes = Set("0123456789.-+eE".utf8)

    /// The latest instant a cursor may name: the end of year 9999, as far as the platform's dates go.
    public static let latestInstant: Double = 253_402_300_799

    /// An instant a cursor carries as seconds since 1970 in text, from 1970 to the end of year 9999; else a 400 problem.
    public static func instant(_ text: String) throws -> Date {
        Date(timeIntervalSince1970: try number(text, in: 0...latestInstant))
    }

    /// Whether every number in `json` (outside its strings) is finite as a `Double`: a key's number past
    /// `Double`'s range (`1e999`) would otherwise decode as infinity wherever a key holds a `Double`.
    static func hasOnlyFiniteNumbers(_ json: Data) -> Bool {
        var inString = false
        var escaped = false
        var number: [UInt8] = []
        func numberIsFinite() -> Bool {
            defer { number.removeAll(keepingCapacity: true) }
            return number.isEmpty || Double(String(decoding: number, as: UTF8.self))?.isFinite == true
        }
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let startsNumber = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            // Inside a number also its fraction and exponent (`true` and `false` hold an `e` too).
            if startsNumber || (!number.isEmpty && "+.eE".utf8.contains(byte)) {
                number.append(byte)
            } else {
                guard numberIsFinite() else { return false }
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return numberIsFinite()
    }

    /// The problem for a cursor no list made.
    public static var invalid: Problem {
        Problem.badRequest("invalid_cursor", "The cursor is not one this list returned.")
    }
}
