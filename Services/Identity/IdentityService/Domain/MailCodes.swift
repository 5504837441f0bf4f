import Crypto
import Foundation
import PlatformKit

/// The six-digit code mailed beside a link, for a person who reads the mail on another device and types it into
/// the app. Only its hash is stored, bound to its link's token, so a code works only together with the address it
/// was sent to and only for the same action and lifetime as the link.
enum MailCode {
    /// Wrong codes a mailed token survives; then it is spent and a fresh request is needed.
    static let maximumTries = 5

    /// A uniformly random code, `000000` to `999999`.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = Int.random(in: 0..<1_000_000, using: &generator)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Exactly six ASCII digits (what the mail shows); anything else is refused before it costs a try.
    static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == 6 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The stored form: SHA-256 over the token's hash and the code.
    static func hash(_ code: String, tokenHash: String) -> String {
        SHA256.hash(data: Data("\(tokenHash):\(code)".utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `code` is the one stored for the token, compared in constant time.
    static func matches(_ code: String, storedHash: String?, tokenHash: String) -> Bool {
        guard let storedHash else { return false }
        return ConstantTime.equals(Array(hash(code, tokenHash: tokenHash).utf8), Array(storedHash.utf8))
    }
}
