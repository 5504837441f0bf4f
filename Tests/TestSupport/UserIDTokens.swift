import Foundation
import PlatformKit

extension AccessTokenVerifier {
    /// A verifier for router-level tests: an access token is the user's id (no signature to check), valid for
    /// 15 minutes from the clock's now, so a request with `Bearer ann` acts as ann.
    public static func userIDTokens(clock: WallClock) -> AccessTokenVerifier {
        AccessTokenVerifier(clock: clock) { token in
            AccessTokenClaims(userID: token, sessionID: "s-\(token)", roles: [], issuedAt: clock.now, lifetime: 900)
        }
    }
}
