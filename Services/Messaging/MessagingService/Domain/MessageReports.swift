import PlatformKit

/// Reports of chat messages, and the admin's decision on them (issue 47; reasons and bounds in ``ContentReports``),
/// as for pack posts in geo.
///
/// A member reports a message of someone else in a conversation they are in; one open report per person per
/// message. Once ``MessagingConfiguration/reportThreshold`` distinct members have open reports, the message is
/// left out for everyone but its sender until an admin decides: `keep` closes the round (it shows again, later
/// reports start a new round), `remove` deletes it and its sender is told. In a direct conversation of two the
/// threshold may never be reached: the admin queue lists the message all the same.
enum MessageReports {
    typealias Reason = ContentReports.Reason
    typealias Decision = ContentReports.Decision
    typealias QueueOrder = ContentReports.QueueOrder
}
