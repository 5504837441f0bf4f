import HTTPTypes
import Hummingbird
import PlatformKit

/// The platform's one rule for `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): optional; when
/// sent, 1 to 255 visible ASCII characters (a UUID fits, as do Stripe-style keys), else 400
/// `invalid_idempotency_key`. A repeated key from the same caller on the same route returns the first answer.
public enum IdempotencyKey {
    /// The longest key accepted.
    public static let maximumLength = 255

    /// The header's field name.
    public static let field = HTTPField.Name("Idempotency-Key")!

    /// The key sent with `request`, `nil` when none was sent.
    public static func of(_ request: Request) throws -> String? {
        guard let key = request.headers[field] else { return nil }
        guard (1...maximumLength).contains(key.utf8.count),
            key.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw Problem.badRequest(
                "invalid_idempotency_key",
                "Idempotency-Key must be 1 to \(maximumLength) visible ASCII characters (no spaces).")
        }
        return key
    }
}
