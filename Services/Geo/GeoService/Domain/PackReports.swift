import PlatformKit

/// Reports of pack posts and comments, and the admin's decision on them (issue 47; reasons and bounds in
/// ``ContentReports``).
///
/// One open report per person per item; once the threshold of distinct people have open reports, the item is hidden
/// from everyone but its writer until an admin decides: `keep` closes the round (the item shows again, later
/// reports start a new round), `remove` deletes it and its writer is told.
enum PackReports {
    typealias Reason = ContentReports.Reason
    typealias Decision = ContentReports.Decision
    typealias QueueOrder = ContentReports.QueueOrder

    /// What a report is about.
    enum Kind: String, Sendable, Codable {
        case post, comment

        /// The item as problem details name it ("The post").
        var missing: GeoError { .notFound(self == .post ? "The post" : "The comment") }
    }

    /// Whether an item with `reporters` distinct open reports is hidden.
    static func hides(reporters: Int, threshold: Int) -> Bool {
        reporters >= threshold
    }
}
