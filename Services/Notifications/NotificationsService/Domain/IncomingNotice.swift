import Foundation

/// A validated notice from a producer, for one or more recipients.
struct IncomingNotice: Sendable {
    var recipientIDs: [String]
    var kind: String
    var text: String
    var link: String
    var producer: String
    var idempotencyKey: String
}

/// A validated realtime event from a producer; `payload` is compact JSON.
struct IncomingEvent: Sendable {
    var recipientIDs: [String]
    var type: String
    var payload: String
    /// The producing service; a repeated `idempotencyKey` is dropped per producer.
    var producer = "unknown"
    /// Derived from what happened (`message.created:<id>`): a second event with it within
    /// ``RecentEventKeys/defaultWindow`` is accepted and dropped, so a producer's retry reaches the live stream once.
    var idempotencyKey: String?
}

/// One entry of a producer's outbox: a notice for the inbox or a live event.
enum Delivery: Sendable {
    case notice(IncomingNotice)
    case event(IncomingEvent)
}

/// What storing a ``Delivery`` did: a notice's new and repeated recipients and where pushes go; whether an event
/// was new (`false`: its idempotency key was already taken, nothing stored).
enum DeliveryOutcome: Sendable {
    case notice(created: Int, duplicates: Int, pushes: [PushTarget])
    case event(accepted: Bool)
}

/// Checks on what producers send. Producers are our own services, but a bug in one must not poison an inbox.
enum NoticeValidation {
    static let maximumRecipients = 1_000
    static let maximumPayloadBytes = 16 << 10

    /// Distinct, plausible user ids, 1 ... `maximumRecipients` of them.
    static func recipients(_ ids: [String]) throws -> [String] {
        var seen = Set<String>()
        let distinct = ids.filter { seen.insert($0).inserted }
        guard (1...maximumRecipients).contains(distinct.count) else {
            throw NotificationsError.invalidField("recipientIds", "must name 1 to \(maximumRecipients) users.")
        }
        guard distinct.allSatisfy({ (1...64).contains($0.utf8.count) && isToken($0, allowing: "-") }) else {
            throw NotificationsError.invalidField("recipientIds", "must be user ids.")
        }
        return distinct
    }

    /// A dotted lower-case name such as `social.friend_request` (kinds and event types).
    static func dottedName(_ value: String, field: String) throws -> String {
        guard (1...64).contains(value.utf8.count), isToken(value, allowing: "._"),
            !value.hasPrefix("."), !value.hasSuffix("."), value.first?.isLetter == true
        else {
            throw NotificationsError.invalidField(field, "must be 1 to 64 characters of a-z, 0-9, '_' and '.'.")
        }
        return value
    }

    /// An API path on this platform: the app opens it when the notice is tapped.
    static func link(_ value: String) throws -> String {
        guard value.hasPrefix("/"), (1...512).contains(value.utf8.count),
            !value.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else {
            throw NotificationsError.invalidField(
                "link", "must be an API path starting with '/', at most 512 characters.")
        }
        return value
    }

    /// A JSON object that fits on one `data:` line: kept as sent when it has no line break (the platform's producers
    /// send compact JSON, and writing it again cost every live event a tenth of its delivery), else re-serialised.
    static func payload(_ text: String) throws -> String {
        guard text.utf8.count <= maximumPayloadBytes,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), object is [String: Any]
        else { throw invalidPayload }
        // Inside JSON strings line breaks are escaped: a raw one is whitespace between tokens.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { return text }
        guard let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw invalidPayload
        }
        return String(decoding: compact, as: UTF8.self)
    }

    private static var invalidPayload: NotificationsError {
        .invalidField("payload", "must be a JSON object of at most \(maximumPayloadBytes) bytes.")
    }

    private static func isToken(_ value: String, allowing extra: String) -> Bool {
        value.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0)
        }
    }
}
