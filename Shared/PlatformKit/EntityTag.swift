import Crypto
import Foundation

/// A strong HTTP entity tag (RFC 9110 section 8.8.3) derived from content, and the `If-None-Match` test.
public struct EntityTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag as sent in `ETag`, quotes included (`"0123abcd..."`).
    public let description: String

    /// The tag of `bytes`: the first 128 bits of their SHA-256, in hex (equal bytes, equal tag, on any replica).
    public init(of bytes: some DataProtocol) {
        description = "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// A tag stored earlier, as it was sent.
    public init(stored: String) {
        description = stored
    }

    /// Whether an `If-None-Match` value names this tag: `*`, or a list with it (weak comparison, as section
    /// 13.1.2 asks, so `W/"x"` matches `"x"`).
    public func isMatched(byIfNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == description
        }
    }
}
