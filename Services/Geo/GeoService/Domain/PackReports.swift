/// Reports of pack posts and comments, and the admin's decision on them (issue 47).
///
/// One open report per person per item; once ``threshold`` distinct people have open reports, the item is hidden
/// from everyone but its writer until an admin decides: `keep` closes the round (the item shows again, later
/// reports start a new round), `remove` deletes it and its writer is told.
enum PackReports {
    /// The reasons a report may give.
    enum Reason: String, CaseIterable, Sendable {
        case spam, harassment, hate, violence, sexual
        case selfHarm = "self_harm"
        case other
    }

    /// What a report is about.
    enum Kind: String, Sendable, Codable {
        case post, comment
    }

    /// An admin's answer to an item's open reports.
    enum Decision: String, Sendable {
        case keep, remove
    }

    /// The queue's orders: the longest-waiting item first, or the most-reported.
    enum QueueOrder: String, Sendable {
        case oldest, most
    }

    /// The longest note a report may carry.
    static let noteLength = 500
    /// The threshold's default and bounds (a setting: `REPORTS_THRESHOLD`).
    static let defaultThreshold = 3
    static let thresholds = 1...50

    /// The reason as the client sent it, or a problem naming `reason`.
    static func reason(_ value: String) throws(GeoError) -> Reason {
        guard let reason = Reason(rawValue: value) else {
            throw .invalidField(
                "reason", "must be one of \(Reason.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return reason
    }

    /// Whether an item with `reporters` distinct open reports is hidden.
    static func hides(reporters: Int, threshold: Int) -> Bool {
        reporters >= threshold
    }
}

/// Refusals of reports and mutes that name the thing (`post` or `comment`).
extension PackReports.Kind {
    /// The item as problem details name it ("The post").
    var missing: GeoError { .notFound(self == .post ? "The post" : "The comment") }
}
