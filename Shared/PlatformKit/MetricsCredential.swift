/// Who may read `/metrics`, at the gateway and at every service: a caller presenting the scrape credential
/// (`METRICS_TOKEN`) as `Authorization: Bearer <token>`, which is what Prometheus' `authorization` setting sends.
///
/// The scrape credential opens `/metrics` and nothing else, and nothing else opens `/metrics`: a scraper's secret
/// (often kept in a monitoring system other teams can read) then cannot call internal routes, and the service
/// credential, which every service holds, cannot read metrics. Without a configured credential nobody may.
public enum MetricsCredential {
    /// Whether the `Authorization` field carries `token` (compared in constant time).
    public static func allows(authorization: String?, token: String?) -> Bool {
        guard let token, !token.isEmpty, let presented = AccessTokenVerifier.bearerToken(authorization) else {
            return false
        }
        return ConstantTime.equals(Array(presented.utf8), Array(token.utf8))
    }
}
