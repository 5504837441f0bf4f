/// Bounds that keep every request cheap.
enum MessagingLimits {
    static let maximumGroupSize = 1_000
    static let maximumInvitesPerRequest = 100
    static let maximumNameLength = 80
}
