/// Bounds that keep every request cheap.
enum MessagingLimits {
    static let maximumGroupSize = 1_000
    /// Topics a member may pin to the top of one group's list.
    static let maximumPinnedTopics = 10
    static let maximumInvitesPerRequest = 100
    static let maximumNameLength = 80
}
