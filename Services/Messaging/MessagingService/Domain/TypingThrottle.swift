import Foundation

/// How often one member's typing in one conversation is passed on: at most once per ``interval`` (Slack and Zulip
/// clients repeat "typing" every few seconds while the user types; more is noise).
struct TypingThrottle: Sendable {
    static let interval: TimeInterval = 3
    /// Entries kept before the stale ones are dropped, so that memory stays bounded.
    static let maximumEntries = 10_000

    struct Key: Hashable, Sendable {
        var userID: String
        var conversationID: String
    }

    private var lastPassed: [Key: Date] = [:]

    /// Whether this typing is passed on now (and remembered as the last one passed).
    mutating func admit(_ key: Key, now: Date) -> Bool {
        if let last = lastPassed[key], now.timeIntervalSince(last) < Self.interval, now >= last { return false }
        if lastPassed.count >= Self.maximumEntries {
            lastPassed = lastPassed.filter { now.timeIntervalSince($0.value) < Self.interval }
        }
        lastPassed[key] = now
        return true
    }
}
