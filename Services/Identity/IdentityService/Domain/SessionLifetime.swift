import Foundation

/// How long a session (a refresh-token chain) lives: an absolute limit from the sign-in that began it, however often
/// it is refreshed, and an idle limit from its latest rotation (issue 41: "Sessions never end on their own"). Past
/// either, its refresh token answers 401 `session_expired` and the session is ended like any other.
public struct SessionLifetime: Sendable, Equatable {
    /// Seconds from sign-in after which the session ends, used or not.
    public var absolute: TimeInterval
    /// Seconds without a refresh after which the session ends.
    public var idle: TimeInterval

    /// The defaults: 90 days in all, 30 days unused.
    public static let standard = SessionLifetime(absolute: 90 * 86_400, idle: 30 * 86_400)
    /// Bounds of `SESSION_LIFETIME_DAYS` and `SESSION_IDLE_DAYS` (the idle limit at most the absolute one).
    public static let allowedDays = 1...365

    public init(absolute: TimeInterval, idle: TimeInterval) {
        self.absolute = absolute
        self.idle = idle
    }

    /// The moment a session begun at `createdAt` and last refreshed at `lastUsedAt` ends, whichever limit comes first.
    func end(createdAt: Date, lastUsedAt: Date) -> Date {
        min(createdAt.addingTimeInterval(absolute), lastUsedAt.addingTimeInterval(idle))
    }

    /// Whether that session has ended by `now` (a token presented at its last instant still works).
    func hasExpired(createdAt: Date, lastUsedAt: Date, now: Date) -> Bool {
        now > end(createdAt: createdAt, lastUsedAt: lastUsedAt)
    }

    /// Sessions begun before `createdBefore` or unused since `usedBefore` have expired at `now`.
    func cutoffs(now: Date) -> (createdBefore: Date, usedBefore: Date) {
        (now.addingTimeInterval(-absolute), now.addingTimeInterval(-idle))
    }
}
