import Foundation
import Synchronization

/// Encodes a value to exactly the bytes ``PlatformJSON/encoder`` writes (sorted keys, ISO 8601 dates, escaped
/// slashes), writing them as the value encodes itself.
///
/// Foundation's encoder first builds a tree of boxed values and then serialises it: for a page of 50 messages that was
/// 40% of the messaging service's CPU (docs/architecture.md, "Why the hot paths look this way"). This one appends to
/// one byte array and sorts an object's members when it closes. What it does not do in one pass (nested or super
/// containers, a container written after a later sibling started, a duplicate key, a number JSON cannot hold) it leaves
/// to Foundation's encoder for the whole value, so the answer, or the error, is always Foundation's.
public enum PlatformJSONWriter {
    /// The JSON of `value`.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = StreamingJSONEncoder()
        do {
            try encoder.encodeValue(value)
            if !encoder.needsFoundation { return encoder.bytes }
        } catch {
            // Foundation's encoder says what is wrong, in its words.
        }
        return Array(try PlatformJSON.encoder.encode(value))
    }
}

/// The `Encoder` behind ``PlatformJSONWriter``. Each value being encoded is a scope with an id; a container
/// only writes while its scope is the innermost one, else the result is left to Foundation (`needsFoundation`).
///
/// One instance encodes one value on one thread and never touches a property inside another access to it, so its
/// hot properties skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): those checks were a tenth of
/// the messaging service's CPU on a page of 50 messages.
final class StreamingJSONEncoder: Encoder {
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// Set when the value used the encoder in a way this one does not reproduce.
    private(set) var needsFoundation = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private enum Scope {
        /// Nothing written yet: the value has not asked for a container.
        case empty
        /// `{` at `start`; its members are `members[firstMember...]`; `keys` is the type of its first container's
        /// keys, under which the order its members sort into is remembered.
        case object(start: Int, firstMember: Int, keys: ObjectIdentifier)
        case array(count: Int)
        case single(written: Bool)
    }

    /// One `"key":value` written into `bytes`, without the separating comma.
    private struct Member {
        let key: String
        let range: Range<Int>
    }

    /// The order one object's members were last sorted into: `keys` as written, `order` the indexes into them in
    /// Foundation's order (`nil` when they were written in it).
    private struct MemberOrder: Sendable {
        let keys: [String]
        let order: [Int]?
    }

    @exclusivity(unchecked) private var scope = Scope.empty
    /// The members of every open object, innermost last.
    @exclusivity(unchecked) private var members: [Member] = []
    /// By type of keys: a type encodes its members in the same order each time (every message of a page), so they
    /// are sorted once per answer rather than once per object.
    @exclusivity(unchecked) private var memberOrders: [ObjectIdentifier: MemberOrder] = [:]
    /// The orders every encoder learned, by type of keys, asked when this one has not seen a type: most answers
    /// encode the types earlier ones did, and the lock costs less than sorting again (a tenth of the chore list's
    /// JSON in a profile).
    private static let learnedOrders = Mutex<[ObjectIdentifier: MemberOrder]>([:])
    /// By type: whether Foundation writes it in a form of its own (``SpecialJSONValue``); asked once per type, since
    /// the cast that answers it is dearer than the lookup.
    @exclusivity(unchecked) private var specialTypes: [ObjectIdentifier: Bool] = [:]
    /// Reused for rewriting an object's members in order.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    private var scopeID = 0
    private var lastScopeID = 0

    init() {
        bytes.reserveCapacity(512)
    }

    func giveUp() {
        needsFoundation = true
    }

    // MARK: Values

    func encodeValue<T: Encodable>(_ value: T) throws {
        // Compared by type, not cast: a failed `as?` per candidate type cost more than writing the value.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Date.self {
            writeDate(unsafeBitCast(value, to: Date.self))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            writeFloatingPoint(unsafeBitCast(value, to: Double.self))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if isSpecial(T.self) {
            if let special = value as? any SpecialJSONValue {
                try special.write(to: self)
            } else if let writing = value as? any JSONSelfWriting {
                writing.writeJSON(to: JSONOutput(encoder: self))
            }
        } else {
            let (outerScope, outerID) = (scope, scopeID)
            lastScopeID += 1
            (scope, scopeID) = (.empty, lastScopeID)
            try value.encode(to: self)
            closeScope()
            (scope, scopeID) = (outerScope, outerID)
        }
    }

    private func isSpecial<T>(_ type: T.Type) -> Bool {
        if let known = specialTypes[ObjectIdentifier(type)] { return known }
        let special = type is any SpecialJSONValue.Type || type is any JSONSelfWriting.Type
        specialTypes[ObjectIdentifier(type)] = special
        return special
    }

    private func closeScope() {
        switch scope {
        case .empty: append("{}")
        case .single(let written): if !written { giveUp() }
        case .array: bytes.append(UInt8(ascii: "]"))
        case .object(let start, let firstMember, let keys):
            bytes.append(UInt8(ascii: "}"))
            sortMembers(from: firstMember, objectStart: start, keys: keys)
            members.removeSubrange(firstMember...)
        }
    }

    /// Rewrites an object's members in Foundation's order (by the keys' UTF-8 bytes) when they were not written so.
    private func sortMembers(from firstMember: Int, objectStart: Int, keys: ObjectIdentifier) {
        let written = members[firstMember...]
        var known = memberOrders[keys]
        if known == nil, let learned = Self.learnedOrders.withLock({ $0[keys] }) {
            known = learned
            memberOrders[keys] = learned
        }
        let order: [Int]?
        if let known, Self.same(known.keys, written) {
            order = known.order
        } else {
            let sorted = written.indices.sorted { Self.precedes(members[$0].key, members[$1].key) }
            // Foundation keeps one of two members with the same key: leave that to it.
            if zip(sorted, sorted.dropFirst()).contains(where: { members[$0].key == members[$1].key }) {
                return giveUp()
            }
            order = sorted.elementsEqual(written.indices) ? nil : sorted.map { $0 - firstMember }
            let learned = MemberOrder(keys: written.map(\.key), order: order)
            memberOrders[keys] = learned
            Self.learnedOrders.withLock { $0[keys] = learned }
        }
        guard let order else { return }
        // Taken out of `scratch` so the buffer is uniquely referenced and kept rather than copied.
        var rewritten: [UInt8] = []
        swap(&rewritten, &scratch)
        rewritten.removeAll(keepingCapacity: true)
        rewritten.append(UInt8(ascii: "{"))
        for (position, index) in order.enumerated() {
            if position > 0 { rewritten.append(UInt8(ascii: ",")) }
            rewritten.append(contentsOf: bytes[members[firstMember + index].range])
        }
        rewritten.append(UInt8(ascii: "}"))
        bytes.replaceSubrange(objectStart..<bytes.count, with: rewritten)
        scratch = rewritten
    }

    /// Whether `members` have exactly `keys`, in that order (the same literals, usually: a quick comparison).
    private static func same(_ keys: [String], _ members: ArraySlice<Member>) -> Bool {
        guard keys.count == members.count else { return false }
        var index = members.startIndex
        for key in keys {
            guard key == members[index].key else { return false }
            index += 1
        }
        return true
    }

    /// Foundation's order: by UTF-8 bytes (not `<`, which compares normalised scalars).
    private static func precedes(_ a: String, _ b: String) -> Bool {
        let ordered = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in
                guard let first = a.baseAddress, let second = b.baseAddress else { return a.count < b.count }
                let common = memcmp(first, second, min(a.count, b.count))
                return common != 0 ? common < 0 : a.count < b.count
            }
        }
        return (ordered ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: Containers' writes

    /// Writes one member of the object `id`; `body` writes its value.
    func member(_ key: String, of id: Int, _ body: () throws -> Void) rethrows {
        guard id == scopeID, case .object(_, let firstMember, _) = scope else { return giveUp() }
        if members.count > firstMember { bytes.append(UInt8(ascii: ",")) }
        let memberStart = bytes.count
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        try body()
        members.append(Member(key: key, range: memberStart..<bytes.count))
    }

    /// Writes one element of the array `id`; `body` writes it.
    func element(of id: Int, _ body: () throws -> Void) rethrows {
        guard id == scopeID, case .array(let count) = scope else { return giveUp() }
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        try body()
        scope = .array(count: count + 1)
    }

    /// Writes the single value of scope `id`; `body` writes it.
    func single(of id: Int, _ body: () throws -> Void) rethrows {
        guard id == scopeID, case .single(written: false) = scope else { return giveUp() }
        try body()
        scope = .single(written: true)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch scope {
        case .empty:
            bytes.append(UInt8(ascii: "{"))
            scope = .object(start: bytes.count - 1, firstMember: members.count, keys: ObjectIdentifier(type))
        case .object: break  // Asked again by the same value (a subclass and its superclass): the same object.
        case .array, .single: giveUp()
        }
        return KeyedEncodingContainer(KeyedWriter(encoder: self, id: scopeID))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch scope {
        case .empty:
            bytes.append(UInt8(ascii: "["))
            scope = .array(count: 0)
        case .array: break
        case .object, .single: giveUp()
        }
        return UnkeyedWriter(encoder: self, id: scopeID)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        switch scope {
        case .empty: scope = .single(written: false)
        case .single: break
        case .object, .array: giveUp()
        }
        return SingleValueWriter(encoder: self, id: scopeID)
    }

    // MARK: Scalars

    func writeNull() { append("null") }

    func writeBool(_ value: Bool) { append(value ? "true" : "false") }

    func writeInteger(_ value: some BinaryInteger) {
        guard let magnitude = UInt64(exactly: value.magnitude) else { return append(String(value)) }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits written backwards into a small buffer: no `String` per number.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Foundation's form: Swift's shortest round-tripping description, without a trailing `.0`.
    func writeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) {
        guard value.isFinite else { return giveUp() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, the fraction of a second dropped, as Foundation's `.iso8601` strategy writes.
    func writeDate(_ date: Date) {
        let interval = date.timeIntervalSince1970.rounded(.down)
        // Gregorian years 1583 to 9999 only; Foundation's calendar decides the rest (it is Julian before 1582).
        guard interval >= -12_212_553_600, interval < 253_402_300_800 else { return giveUp() }
        let seconds = Int(interval)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = LocalDay(number: day).civil
        bytes.append(UInt8(ascii: "\""))
        appendDigits(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(dayOfMonth, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(second / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second % 60, width: 2)
        append("Z\"")
    }

    private func appendDigits(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// A JSON string as Foundation writes it: `"`, `\` and `/` escaped, control characters as `\b \t \n \f \r` or
    /// `\u00XX`, everything else (including non-ASCII) as is.
    func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        let plain = string.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            guard !buffer.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if plain != true {
            for byte in string.utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }

    private func appendEscaped(_ byte: UInt8) {
        guard Self.needsEscape(byte) else { return bytes.append(byte) }
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            append("u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    private func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    fileprivate func append(bytes text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }
}

/// A value that writes its own JSON, for a hot answer of a fixed shape (geo's map, the inbox's notices, social's
/// people): ``PlatformJSONWriter`` calls ``writeJSON(to:)`` instead of `encode(to:)`, which Foundation's encoder still
/// uses, so the two must write the same bytes (members in sorted order, absent optionals left out); the type's tests
/// compare them.
public protocol JSONSelfWriting: Encodable {
    /// Writes the value, members in the platform's sorted order.
    func writeJSON(to json: JSONOutput)
}

/// What a ``JSONSelfWriting`` value writes with: punctuation and keys as given, strings and numbers in the forms the
/// platform's encoder gives them.
public struct JSONOutput {
    fileprivate let encoder: StreamingJSONEncoder

    /// Punctuation and quoted keys, written as they are (`{"id":`).
    public func raw(_ text: StaticString) {
        text.withUTF8Buffer { encoder.append(bytes: $0) }
    }

    /// A string, escaped as Foundation escapes it.
    public func string(_ value: String) { encoder.writeString(value) }

    /// A number; one JSON cannot hold (infinite, NaN) leaves the whole answer to Foundation's encoder, which refuses it.
    public func number(_ value: Double) { encoder.writeFloatingPoint(value) }

    /// A whole number.
    public func number(_ value: Int) { encoder.writeInteger(value) }

    /// `true` or `false`.
    public func bool(_ value: Bool) { encoder.writeBool(value) }

    /// A date, as the platform writes dates (ISO 8601 in UTC, whole seconds).
    public func date(_ value: Date) { encoder.writeDate(value) }

    /// `member` (`,"count":`) and the number, or nothing for `nil`, as `encode(to:)` leaves an absent optional out.
    public func number(_ member: StaticString, _ value: Int?) {
        guard let value else { return }
        raw(member)
        number(value)
    }

    /// `member` (`,"name":`) and the string, or nothing for `nil`.
    public func string(_ member: StaticString, _ value: String?) {
        guard let value else { return }
        raw(member)
        string(value)
    }

    /// `member` (`,"readAt":`) and the date, or nothing for `nil`.
    public func date(_ member: StaticString, _ value: Date?) {
        guard let value else { return }
        raw(member)
        date(value)
    }
}

/// The values Foundation's encoder writes in a form of its own rather than by their `encode(to:)`.
private protocol SpecialJSONValue {
    func write(to encoder: StreamingJSONEncoder) throws
}

extension URL: SpecialJSONValue {
    fileprivate func write(to encoder: StreamingJSONEncoder) { encoder.writeString(absoluteString) }
}

extension Data: SpecialJSONValue {
    fileprivate func write(to encoder: StreamingJSONEncoder) { encoder.writeString(base64EncodedString()) }
}

extension Decimal: SpecialJSONValue {
    fileprivate func write(to encoder: StreamingJSONEncoder) { encoder.giveUp() }
}

extension Float: SpecialJSONValue {
    fileprivate func write(to encoder: StreamingJSONEncoder) { encoder.writeFloatingPoint(self) }
}

extension Int8: SpecialJSONValue {}
extension Int16: SpecialJSONValue {}
extension Int32: SpecialJSONValue {}
extension UInt: SpecialJSONValue {}
extension UInt8: SpecialJSONValue {}
extension UInt16: SpecialJSONValue {}
extension UInt32: SpecialJSONValue {}
extension UInt64: SpecialJSONValue {}

extension SpecialJSONValue where Self: BinaryInteger {
    fileprivate func write(to encoder: StreamingJSONEncoder) { encoder.writeInteger(self) }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamingJSONEncoder
    let id: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.member(key.stringValue, of: id) { encoder.writeNull() }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        encoder.member(key.stringValue, of: id) { encoder.writeBool(value) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        encoder.member(key.stringValue, of: id) { encoder.writeString(value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        encoder.member(key.stringValue, of: id) { encoder.writeFloatingPoint(value) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        encoder.member(key.stringValue, of: id) { encoder.writeInteger(value) }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.member(key.stringValue, of: id) { try encoder.encodeValue(value) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.giveUp()
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(encoder: encoder, id: -1))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.giveUp()
        return UnkeyedWriter(encoder: encoder, id: -1)
    }
    mutating func superEncoder() -> any Encoder {
        encoder.giveUp()
        return encoder
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.giveUp()
        return encoder
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let encoder: StreamingJSONEncoder
    let id: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(encoder: StreamingJSONEncoder, id: Int) {
        self.encoder = encoder
        self.id = id
    }

    mutating func encodeNil() throws {
        encoder.element(of: id) { encoder.writeNull() }
        count += 1
    }
    mutating func encode(_ value: String) throws {
        encoder.element(of: id) { encoder.writeString(value) }
        count += 1
    }
    mutating func encode(_ value: Int) throws {
        encoder.element(of: id) { encoder.writeInteger(value) }
        count += 1
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.element(of: id) { try encoder.encodeValue(value) }
        count += 1
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.giveUp()
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(encoder: encoder, id: -1))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.giveUp()
        return UnkeyedWriter(encoder: encoder, id: -1)
    }
    mutating func superEncoder() -> any Encoder {
        encoder.giveUp()
        return encoder
    }
}

private struct SingleValueWriter: SingleValueEncodingContainer {
    let encoder: StreamingJSONEncoder
    let id: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.single(of: id) { encoder.writeNull() } }
    mutating func encode(_ value: Bool) throws { encoder.single(of: id) { encoder.writeBool(value) } }
    mutating func encode(_ value: String) throws { encoder.single(of: id) { encoder.writeString(value) } }
    mutating func encode(_ value: Int) throws { encoder.single(of: id) { encoder.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.single(of: id) { try encoder.encodeValue(value) }
    }
}
