import Foundation
import PlatformKit
import TestSupport
import Testing

@testable import ServiceKit

/// ``PlatformJSONWriter`` writes the bytes Foundation's ``PlatformJSON/encoder`` writes: every case here is
/// encoded by both and compared byte for byte.
@Suite struct PlatformJSONWriterTests {
    struct Author: Codable {
        var userId: String
        var displayName: String?
        var avatarURL: URL?
    }

    struct Message: Codable {
        var id: Int64
        var text: String
        var author: Author
        var sentAt: Date
        var editedAt: Date?
        var reactions: [String: Int]
        var mentions: [String]
        var score: Double
        var ratio: Float
        var pinned: Bool
        var topicId: Int?
        var attachment: Data?
    }

    enum Kind: String, Codable { case fixed, rotating }

    struct Wrapper: Codable {
        var kind: Kind
        var nested: [[Int?]]
        var byDay: [String: [Author]]
        var flags: Set<String>
        var small: Int8
        var big: UInt64
        var negative: Int64
    }

    /// Writes its members out of order and asks for its container twice, as a subclass calling `super` does.
    struct HandWritten: Encodable {
        enum Keys: String, CodingKey { case zulu, alpha, mike }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            try first.encode("z", forKey: .zulu)
            var second = encoder.container(keyedBy: Keys.self)
            try second.encode(1, forKey: .alpha)
            try second.encodeNil(forKey: .mike)
        }
    }

    /// Uses a nested container: left to Foundation, with the same result.
    struct Nesting: Encodable {
        enum Keys: String, CodingKey { case outer, after }
        enum Inner: String, CodingKey { case b, a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
            try container.encode(2, forKey: .after)
            try inner.encode("late", forKey: .b)
            try inner.encode("x", forKey: .a)
        }
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Duplicate: Encodable {
        enum Keys: String, CodingKey { case b, a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode(3, forKey: .b)
        }
    }

    /// Writes itself (``JSONSelfWriting``) the way its synthesized `encode(to:)` encodes it.
    struct Tag: JSONSelfWriting {
        var name: String
        var weight: Double

        func writeJSON(to json: JSONOutput) {
            json.raw(#"{"name":"#)
            json.string(name)
            json.raw(#","weight":"#)
            json.number(weight)
            json.raw("}")
        }
    }

    struct Tagged: Encodable {
        var tags: [Tag]
        var main: Tag?
        var count: Int
    }

    @Test func aSelfWritingValueIsWrittenInPlaceWhereverItSits() throws {
        for name in Self.awkwardStrings {
            try expectSameBytes(Tag(name: name, weight: 0.1))
            try expectSameBytes(
                Tagged(tags: [Tag(name: name, weight: 2), Tag(name: "b", weight: -1e-7)], main: nil, count: 2))
            try expectSameBytes(Tagged(tags: [], main: Tag(name: name, weight: 1e300), count: 0))
        }
        // A number JSON cannot hold leaves the value to Foundation's encoder, which refuses it.
        #expect(throws: EncodingError.self) {
            try PlatformJSONWriter.encode(Tagged(tags: [Tag(name: "x", weight: .infinity)], main: nil, count: 1))
        }
    }

    func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let foundation = try PlatformJSON.encoder.encode(value)
        let written = try PlatformJSONWriter.encode(value)
        #expect(
            String(decoding: written, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
    }

    static let awkwardStrings = [
        "", "plain", "a/b", "quote \" and \\ backslash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}", "\u{7F}",
        "é, 漢字, 😀, \u{2028}\u{2029}", "<script>alert(1)</script>", "tab\tnew\nline", "https://x.y/a?b=c&d=e",
    ]

    @Test func messagesWithEveryKindOfMemberMatch() throws {
        var messages: [Message] = []
        for (index, text) in Self.awkwardStrings.enumerated() {
            messages.append(
                Message(
                    id: Int64(index) * 1_000_000_007, text: text,
                    author: Author(
                        userId: UUID().uuidString.lowercased(), displayName: index.isMultiple(of: 2) ? text : nil,
                        avatarURL: index == 3 ? URL(string: "https://cdn.example.com/a/\(index).png") : nil),
                    sentAt: Date(timeIntervalSince1970: 1_795_755_226.959 + Double(index) * 86_399.5),
                    editedAt: index.isMultiple(of: 3) ? Date(timeIntervalSince1970: Double(index) * 31_557_600) : nil,
                    reactions: [text: index, "👍": 2, "B": 1, "a10": 3, "a2": 4, "_": 5],
                    mentions: Array(Self.awkwardStrings.prefix(index)),
                    score: [0, 0.1, -0.0, 1e21, 1e-7, 123456789.25, 3.0, -2.5e-300, 1e16, 0.30000000000000004][index],
                    ratio: Float(index) / 3, pinned: index.isMultiple(of: 2), topicId: index > 5 ? index : nil,
                    attachment: index == 4 ? Data([0, 1, 2, 250, 255]) : nil))
        }
        try expectSameBytes(messages)
        for message in messages { try expectSameBytes(message) }
    }

    @Test func nestedCollectionsEnumsAndIntegersMatch() throws {
        let author = Author(userId: "u", displayName: "Ann", avatarURL: nil)
        try expectSameBytes(
            Wrapper(
                kind: .rotating, nested: [[1, nil, 3], [], [nil]], byDay: ["2026-11-3": [author], "2026-11-27": []],
                flags: ["b", "a", "c"], small: .min, big: .max, negative: .min))
        try expectSameBytes([Kind.fixed: 1, Kind.rotating: 2].mapKeys(\.rawValue))
        try expectSameBytes([1: "one", 10: "ten", 2: "two"])
    }

    @Test func topLevelScalarsMatch() throws {
        try expectSameBytes("a/b")
        try expectSameBytes(42)
        try expectSameBytes(true)
        try expectSameBytes(Optional<Int>.none)
        try expectSameBytes(2.5)
        try expectSameBytes(Date(timeIntervalSince1970: 0))
        try expectSameBytes([String]())
        try expectSameBytes([String: Int]())
    }

    @Test(arguments: propertySeeds()) func datesAcrossTheCalendarMatch(seed: UInt64) throws {
        var dates: [Date] = []
        var generator = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: -62_000_000_000...253_000_000_000, using: &generator)))
        }
        dates += [-1, -0.5, 0, 0.999, 951_782_400, 4_107_542_400].map(Date.init(timeIntervalSince1970:))
        let mismatched = try dates.filter {
            try PlatformJSONWriter.encode($0) != Array(PlatformJSON.encoder.encode($0))
        }
        #expect(mismatched.prefix(3).map(\.timeIntervalSince1970) == [])
        try expectSameBytes(dates)
    }

    @Test(arguments: propertySeeds()) func doublesMatch(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var numbers = (0..<2_000).map { _ in
            Double(
                bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF
                    | (Bool.random(using: &generator) ? 0x8000_0000_0000_0000 : 0))
        }
        numbers += (0..<500).map { _ in Double.random(in: -1_000_000...1_000_000, using: &generator) }
        numbers += (0..<500).map { _ in (Double.random(in: -180...180, using: &generator) * 1e6).rounded() / 1e6 }
        let mismatched = try numbers.filter {
            try PlatformJSONWriter.encode($0) != Array(PlatformJSON.encoder.encode($0))
        }
        #expect(mismatched.prefix(3) == [])
        try expectSameBytes(numbers)
    }

    @Test func handWrittenEncodersMatch() throws {
        try expectSameBytes(HandWritten())
        try expectSameBytes(Nesting())
        try expectSameBytes([Empty()])
        try expectSameBytes(Duplicate())
    }

    @Test func whatFoundationRefusesIsRefused() {
        #expect(throws: EncodingError.self) { try PlatformJSONWriter.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try PlatformJSONWriter.encode(["x": Double.infinity]) }
    }
}

extension Dictionary {
    fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
        Dictionary<NewKey, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}

/// Column names convert as GRDB's `convertFromSnakeCase` converts them.
@Suite struct SnakeCaseNamesTests {
    @Test(arguments: [
        ("user_id", "userId"), ("avatar_url", "avatarUrl"), ("name", "name"), ("_private_thing_", "_privateThing_"),
        ("a__b", "aB"), ("Upper_case", "upperCase"), ("___", "___"), ("created_at_ms", "createdAtMs"),
        ("line_2", "line2"), ("trailing_", "trailing_"), ("x", "x"), ("", ""),
    ])
    func converts(column: String, property: String) {
        #expect(SnakeCaseNames.convert(column) == property)
        #expect(SnakeCaseNames.camelCase(column) == property)
    }
}
