import Foundation
import PlatformKit

/// Checks the shape of an `email` + `code` pair and counts it against the address (a handful an hour, whatever the
/// code), so nobody walks the million codes by asking for fresh mails; each code also dies after
/// `MailCode.maximumTries` wrong tries.
struct MailCodeTries: Sendable {
    let perAddress: RateLimiter

    /// The normalised address and the code, or a 400 naming the field (or 429 when the address tried too often).
    func check(email: String?, code: String?) throws -> (email: String, code: String) {
        guard let code else {
            throw Problem.invalidField(email == nil ? "token" : "code", "a token, or an email and a code, is required.")
        }
        guard MailCode.isWellFormed(code) else {
            throw Problem.invalidField("code", "must be the six digits from the e-mail.")
        }
        let address = (email ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard address.contains("@"), address.utf8.count <= 254 else {
            throw Problem.invalidField("email", "must be the address the code was sent to.")
        }
        try perAddress.enforce(address, "Too many codes were tried for this address; try again later.")
        return (address, code)
    }

    /// The hash of the token a request names: its link's token, or else the token its address and code stand for
    /// (`lookup`, which counts a wrong code against it). `invalid` when neither works.
    func tokenHash(
        token: String?, email: String?, code: String?, invalid: IdentityError,
        lookup: (_ email: String, _ code: String) async throws -> String?
    ) async throws -> String {
        if let token {
            guard !token.isEmpty, token.count <= 256 else { throw invalid }
            return OpaqueToken.hash(token)
        }
        let (email, code) = try check(email: email, code: code)
        guard let hash = try await lookup(email, code) else { throw invalid }
        return hash
    }
}
