/// Reports of chat messages, and the admin's decision on them (issue 47), as for pack posts in geo.
///
/// A member reports a message of someone else in a conversation they are in; one open report per person per
/// message. Once ``MessagingConfiguration/reportThreshold`` distinct members have open reports, the message is
/// left out for everyone but its sender until an admin decides: `keep` closes the round (it shows again, later
/// reports start a new round), `remove` deletes it and its sender is told. In a direct conversation of two the
/// threshold may never be reached: the admin queue lists the message all the same.
enum MessageReports {
    /// The reasons a report may give.
    enum Reason: String, CaseIterable, Sendable {
        case spam, harassment, hate, violence, sexual
        case selfHarm = "self_harm"
        case other
    }

    /// An admin's answer to a message's open reports.
    enum Decision: String, Sendable {
        case keep, remove
    }

    /// The queue's orders: the longest-waiting message first, or the most-reported.
    enum QueueOrder: String, Sendable {
        case oldest, most
    }

    /// The longest note a report may carry.
    static let noteLength = 500
    /// The threshold's default and bounds (`REPORTS_THRESHOLD`).
    static let defaultThreshold = 3
    static let thresholds = 1...50

    /// The reason as the client sent it, or a problem naming `reason`.
    static func reason(_ value: String) throws(MessagingError) -> Reason {
        guard let reason = Reason(rawValue: value) else {
            throw .invalidField(
                "reason", "must be one of \(Reason.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return reason
    }
}
