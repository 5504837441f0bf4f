import Foundation
import Hummingbird
import PlatformKit

/// Several outbox entries in one post to `/internal/deliveries`: `{"entries": [{"kind": "notice" | "event", "body":
/// <what /internal/notifications or /internal/events takes>}]}`. An entry that does not decode is refused alone.
struct DeliveryBatch: Decodable {
    static let maximumEntries = 500

    enum Entry: Decodable {
        case notice(InternalNotificationsController.NoticeRequest)
        case event(InternalNotificationsController.EventRequest)

        enum CodingKeys: String, CodingKey {
            case kind, body
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .kind) {
            case "notice":
                self = .notice(try container.decode(InternalNotificationsController.NoticeRequest.self, forKey: .body))
            case "event":
                self = .event(try container.decode(InternalNotificationsController.EventRequest.self, forKey: .body))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container, debugDescription: "must be notice or event.")
            }
        }
    }

    /// One entry, or why it did not decode: the others are taken all the same.
    struct LenientEntry: Decodable {
        let entry: Swift.Result<Entry, any Error>

        init(from decoder: any Decoder) throws {
            entry = Swift.Result { try Entry(from: decoder) }
        }

        func get() throws -> Entry { try entry.get() }
    }

    struct Outcome: Codable, Equatable {
        var status: Int
        var code: String?
    }

    struct Reply: ResponseEncodable, Codable {
        /// One per entry taken, in order; fewer than the entries when one could not be stored.
        var results: [Outcome]
    }

    var entries: [LenientEntry]

    /// The answer for an entry refused for what it holds (a 4xx); `nil` for a failure to store it.
    static func refusal(_ error: any Error) -> Outcome? {
        if let error = error as? DecodingError { return Outcome(status: 400, code: Problem.invalidBody(error).code) }
        let problem = (error as? Problem) ?? (error as? any ProblemConvertible)?.problem
        guard let problem, (400..<500).contains(problem.statusCode) else { return nil }
        return Outcome(status: problem.statusCode, code: problem.code)
    }
}
