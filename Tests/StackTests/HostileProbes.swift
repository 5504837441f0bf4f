import Foundation
import PlatformKit

/// One request of the hostile walk: an operation with one field set to one hostile value.
struct HostileProbe: Sendable {
    var method: String
    var template: String
    /// Path and query as sent.
    var target: String
    var headers: [(String, String)]
    var body: Data?
    var field: String
    var value: String
    /// Reads first, then writes, then deletions and the identity routes that end sessions.
    var phase: Int
    /// Identity's own routes run as zed, who may lose sessions or a password on the way.
    var asZed: Bool
    /// The SSE stream never ends: only its status is read.
    var isStream: Bool

    var label: String { "\(method) \(template) \(field)=\(value)" }
}

/// A JSON value the walk writes itself, so that 1e300, Int64.min and NUL go out exactly as meant.
indirect enum HostileJSON: Sendable {
    case int(Int64), double(Double), string(String), bool(Bool), array([HostileJSON])
    case object([(String, HostileJSON)])

    var text: String {
        switch self {
        case .int(let value): String(value)
        case .double(let value): "\(value)"
        case .bool(let value): String(value)
        case .string(let value): Self.quoted(value)
        case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The hostile values of issue 16, by where they go.
enum HostileValues {
    static let longText = String(repeating: "a", count: 100_000)

    /// For numeric body fields: extremes, signs, tiny, and numbers sent as strings.
    static let numbers: [(String, HostileJSON)] = [
        ("Int64.max", .int(.max)), ("Int64.min", .int(.min)), ("1e300", .double(1e300)), ("-1e300", .double(-1e300)),
        ("1e-300", .double(1e-300)), ("-1", .int(-1)), ("0", .int(0)),
        ("\"9223372036854775807\"", .string("9223372036854775807")), ("\"1e300\"", .string("1e300")),
    ]

    /// For string fields anywhere: numbers as text, far dates, 100 kB, NUL, bidi controls, forged cursors.
    static let strings: [(String, String)] =
        [
            "9223372036854775807", "-9223372036854775808", "99999999999999999999", "1e300", "-1e300", "1e-300", "-1",
            "0", "", "99999-12-31", "0000-01-01", "-271821-04-19", "9999-12-31T23:59:59Z", "GMT+9223372036854775807",
            "a\u{0}b",
            "\u{202E}evil\u{202C}",
        ].map { (label($0), $0) }
        + [("100 kB", longText)] + cursors

    /// A value as a failure report shows it: controls and bidi marks escaped, so the report reads as sent.
    static func label(_ value: String) -> String {
        let escaped = value.unicodeScalars.map {
            $0.value < 0x20 || (0x200E...0x202E).contains($0.value) ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }.joined()
        return escaped.isEmpty ? "(empty)" : escaped
    }

    /// Cursors a client could forge: base64 of huge numbers, alone or in the shapes the lists use.
    static let cursors: [(String, String)] = [
        ("cursor(Int64.max)", PageCursor.encode(Int64.max)), ("cursor(Int64.min)", PageCursor.encode(Int64.min)),
        ("cursor(1e300)", PageCursor.encode(1e300)),
        ("cursor({all keys: Int64.max})", PageCursor.encode(hugeKeys)),
        ("cursor({all keys: Int64.min})", PageCursor.encode(hugeKeys.mapValues { _ in Int64.min })),
        ("cursor([huge, huge])", PageCursor.encode(["9223372036854775807", "9223372036854775807"])),
        ("cursor({day: far, id: Int64.max})", PageCursor.encode(DayKey(day: "99999-12-31", id: .max))),
    ]

    struct DayKey: Encodable {
        var day: String
        var id: Int64
    }

    /// Every key name the platform's cursors use, each at Int64.max.
    static let hugeKeys: [String: Int64] = Dictionary(
        uniqueKeysWithValues: ["offset", "id", "before", "after", "activity", "pack", "post", "seq", "hot", "score"]
            .map { ($0, Int64.max) })

    static let booleans: [(String, HostileJSON)] = [("\"true\"", .string("true")), ("0", .int(0))]

    /// The values a sampled walk sends to every field (by label): Int64.max as a number or as text, which overflows
    /// arithmetic and conversions, and 100 kB, which no field may store.
    static let alwaysSent: Set<String> = ["Int64.max", "9223372036854775807", "100 kB"]
}
