import NIOHTTP1
import PlatformKit

/// How a client framed its request body, read from the head alone, and refused when two parsers could
/// disagree about where the body ends (request smuggling, issue 16 item 1).
///
/// NIO's llhttp decoder already refuses obs-fold, bare LF, two Content-Lengths and Content-Length with
/// Transfer-Encoding; it accepts any Transfer-Encoding ending in `chunked` in any letter case (`Chunked`,
/// `gzip, chunked`), which a service's parser may read differently. The gateway therefore accepts only
/// a single `chunked` and never forwards the client's framing headers: ``GatewayHandler/forwardedHead(_:framing:requestID:)`` writes its own.
struct RequestFraming: Equatable {
    enum Body: Equatable {
        case none
        case length(Int)
        case chunked
    }

    var body: Body
    /// The client asked for a protocol upgrade: NIO's decoder stops parsing after such a request, so its
    /// connection cannot carry another.
    var upgrade: Bool

    /// Reads the framing headers of `head`, or throws the 4xx problem that refuses the request (the
    /// connection must then be closed: where the next request starts is unknowable).
    init(_ head: HTTPRequestHead) throws(Problem) {
        if head.method == .TRACE || head.method == .CONNECT {
            throw Problem(
                status: 405, code: "method_not_allowed", title: "Method not allowed",
                detail: "\(head.method.rawValue) is not accepted.")
        }
        var lengthFields = 0
        var length: Int?
        var codingFields = 0
        var chunkedOnly = true
        var upgrade = false
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 14 where HeaderName.matches(name, "content-length"):
                lengthFields += 1
                length = Self.decimal(value)
            case 17 where HeaderName.matches(name, "transfer-encoding"):
                codingFields += 1
                chunkedOnly = chunkedOnly && HeaderName.matches(Self.trimmed(value), "chunked")
            case 7 where HeaderName.matches(name, "upgrade"):
                upgrade = true
            default:
                continue
            }
        }
        if codingFields > 0 && lengthFields > 0 {
            throw Problem.badRequest(
                "conflicting_framing", "Send either Content-Length or Transfer-Encoding: chunked, not both.")
        }
        if codingFields > 0 && !(codingFields == 1 && chunkedOnly) {
            throw Problem.badRequest(
                "unsupported_transfer_encoding", "Transfer-Encoding: only a single `chunked` is accepted.")
        }
        if lengthFields > 1 || (lengthFields == 1 && length == nil) {
            throw Problem.badRequest("invalid_content_length", "Content-Length must be one decimal number.")
        }
        if codingFields == 1 {
            self.body = .chunked
        } else if let length, length > 0 {
            self.body = .length(length)
        } else {
            self.body = .none
        }
        self.upgrade = upgrade
    }

    /// `value` as a non-negative decimal of at most 15 digits (no sign, no list), else `nil`.
    static func decimal(_ value: String) -> Int? {
        let digits = trimmed(value).utf8
        guard (1...15).contains(digits.count) else { return nil }
        var number = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number
    }

    /// `value` without surrounding spaces and tabs (optional whitespace, RFC 9110 section 5.6.3).
    static func trimmed(_ value: String) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = value.firstIndex(where: { !isSpace($0) }), let last = value.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return value[first...last]
    }
}

/// Case-insensitive header name checks that allocate nothing (the forwarding path runs them per header).
enum HeaderName {
    /// Whether `name` equals `lowercase` ignoring ASCII case. `lowercase` holds only `a-z`, `0-9` and `-`;
    /// OR-ing 0x20 maps no other token character onto those.
    static func matches(_ name: some StringProtocol, _ lowercase: String) -> Bool {
        guard name.utf8.count == lowercase.utf8.count else { return false }
        var candidate = lowercase.utf8.makeIterator()
        for byte in name.utf8 {
            guard byte | 0x20 == candidate.next() else { return false }
        }
        return true
    }
}
