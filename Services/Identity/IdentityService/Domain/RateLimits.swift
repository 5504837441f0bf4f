import PlatformKit

/// The rate limiters of sign-in and recovery, keyed by account and by client address (an IPv6 client by its /64,
/// ``RateLimiter/key(forAddress:)``). Each keeps at most 100,000 keys; see ``RateLimiter`` for what evicting one
/// gives an attacker (for login failures: `loginFailuresPerAccount` more tries after 100,000 sign-ins, each within
/// `loginsPerAddress`, over other accounts).
struct RateLimits: Sendable {
    let loginFailuresByAccount: RateLimiter
    let loginsByAddress: RateLimiter
    let resetsByAccount: RateLimiter
    let resetsByAddress: RateLimiter
    let registrationsByAddress: RateLimiter
    let noncesByAddress: RateLimiter

    init(_ limits: IdentityRateLimits, clock: WallClock) {
        loginFailuresByAccount = RateLimiter(capacity: limits.loginFailuresPerAccount, period: 15 * 60, clock: clock)
        loginsByAddress = RateLimiter(capacity: limits.loginsPerAddress, period: 60, clock: clock)
        resetsByAccount = RateLimiter(capacity: limits.resetsPerAccount, period: 3600, clock: clock)
        resetsByAddress = RateLimiter(capacity: limits.resetsPerAddress, period: 3600, clock: clock)
        registrationsByAddress = RateLimiter(capacity: limits.registrationsPerAddress, period: 3600, clock: clock)
        noncesByAddress = RateLimiter(capacity: limits.noncesPerAddress, period: 60, clock: clock)
    }
}
