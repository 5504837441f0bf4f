import Foundation

extension Data {
    /// These bytes as base64url without padding (RFC 4648 §5): how the platform writes tokens, key ids and cursors.
    public var base64URLEncoded: String {
        var text = base64EncodedData()
        text.removeAll { $0 == UInt8(ascii: "=") }
        for index in text.indices {
            if text[index] == UInt8(ascii: "+") { text[index] = UInt8(ascii: "-") }
            if text[index] == UInt8(ascii: "/") { text[index] = UInt8(ascii: "_") }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
