import Foundation

/// What to do when a refresh token is presented, following Supabase Auth: a token already rotated is
/// accepted again only within a short grace window (two requests of one app racing on a flaky mobile
/// network); outside it, its reuse means it leaked, and the whole session is revoked.
enum RefreshPolicy {
    static let reuseGraceInterval: TimeInterval = 10

    enum Decision: Equatable {
        case rotate
        case reject
    }

    static func decide(rotatedAt: Date?, now: Date) -> Decision {
        guard let rotatedAt else { return .rotate }
        return now.timeIntervalSince(rotatedAt) <= reuseGraceInterval ? .rotate : .reject
    }
}
