import NIOHTTP1
import PlatformKit

/// Who may read the gateway's `/metrics`: callers holding the service credential, sent as
/// `Authorization: Bearer <token>` (what Prometheus' `authorization` setting sends) or in the platform's
/// internal-token header. Without a configured credential nobody may (issue 16 item 7).
enum MetricsAccess {
    static func allows(_ headers: HTTPHeaders, token: String?) -> Bool {
        guard let token, !token.isEmpty else { return false }
        let expected = Array(token.utf8)
        let presented = [
            headers.first(name: PlatformHeaders.internalToken),
            AccessTokenVerifier.bearerToken(headers.first(name: "authorization")),
        ]
        return presented.contains { $0.map { ConstantTime.equals(Array($0.utf8), expected) } ?? false }
    }
}
