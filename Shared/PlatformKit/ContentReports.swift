import Foundation

/// Reports of what users write (issue 47), as every service that keeps user content takes them: the reasons a
/// report may give, an admin's decisions, the queue's orders and the bounds of notes and thresholds.
public enum ContentReports {
    /// The reasons a report may give.
    public enum Reason: String, CaseIterable, Sendable {
        case spam, harassment, hate, violence, sexual
        case selfHarm = "self_harm"
        case other
    }

    /// An admin's answer to an item's open reports: `keep` shows it again, `remove` deletes it.
    public enum Decision: String, Sendable {
        case keep, remove
    }

    /// The admin queue's orders: the longest-waiting item first, or the most-reported.
    public enum QueueOrder: String, Sendable {
        case oldest, most
    }

    /// The longest note a report may carry.
    public static let noteLength = 500
    /// The default number of distinct reporters that hide an item (`REPORTS_THRESHOLD`).
    public static let defaultThreshold = 3
    /// The thresholds a service accepts.
    public static let thresholds = 1...50

    /// The reason as the client sent it, or a 400 problem naming `reason`.
    public static func reason(_ value: String) throws -> Reason {
        guard let reason = Reason(rawValue: value) else {
            throw Problem.invalidField(
                "reason", "must be one of \(Reason.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return reason
    }

    /// The queue order a `sort` query parameter names (`oldest` when absent), or a 400 problem naming `sort`.
    public static func queueOrder(_ sort: String?) throws -> QueueOrder {
        guard let order = QueueOrder(rawValue: sort ?? QueueOrder.oldest.rawValue) else {
            throw Problem.invalidField("sort", "must be oldest or most.")
        }
        return order
    }

    /// One open report as an admin's queue shows it.
    public struct OpenReport: Codable, Sendable, Equatable {
        /// The reason given (a ``Reason`` raw value).
        public var reason: String
        /// The reporter's note, if any.
        public var note: String?
        /// When the report was made.
        public var createdAt: Date

        /// The report as the queue shows it.
        public init(reason: String, note: String?, createdAt: Date) {
            (self.reason, self.note, self.createdAt) = (reason, note, createdAt)
        }
    }

    /// How many of `reports` give each reason (the queue's `reasons`).
    public static func reasonCounts(_ reports: [OpenReport]) -> [String: Int] {
        Dictionary(reports.map { ($0.reason, 1) }, uniquingKeysWith: +)
    }

    /// A configured threshold brought into ``thresholds``.
    public static func clamped(_ threshold: Int) -> Int {
        min(max(threshold, thresholds.lowerBound), thresholds.upperBound)
    }
}
