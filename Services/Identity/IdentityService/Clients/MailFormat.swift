import Foundation
import PlatformKit

/// Renders a `MailMessage` as an RFC 5322 / MIME message that real providers accept: a `Date`, a unique
/// `Message-ID` on the sender's domain, `MIME-Version`, a `multipart/alternative` body (the text complete on its own,
/// the HTML a simple escaped rendering of it), RFC 2047 encoded non-ASCII headers and CRLF line endings.
///
/// Both the SMTP and the folder transport use it, so the `.eml` files of the local stack are the mail as sent.
enum MailFormat {
    /// The whole message with CRLF line endings, not yet dot-stuffed (that belongs to SMTP's DATA, see `dotStuffed`).
    static func render(_ message: MailMessage, from sender: String, date: Date, messageID: String) -> String {
        let boundary = "=_platform_\(UUID().uuidString)"
        let text = body(message.body)
        let html = body(html(from: message.body, title: message.subject))
        let lines: [String] = [
            "From: <\(sender)>",
            "To: <\(message.recipient)>",
            "Subject: \(encodedHeader(message.subject))",
            "Date: \(rfc5322Date(date))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(text.encoding)",
            "",
            text.content,
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: \(html.encoding)",
            "",
            html.content,
            "--\(boundary)--",
        ]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A new `<random@domain>` identifier on the sender's domain (RFC 5322 section 3.6.4).
    static func messageID(sender: String) -> String {
        let domain = sender.split(separator: "@").last.map(String.init) ?? "localhost"
        return "<\(UUID().uuidString.lowercased())@\(domain.isEmpty ? "localhost" : domain)>"
    }

    /// `Wed, 25 Nov 2026 05:41:20 +0000` (RFC 5322 section 3.3), always in UTC and English.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// The header value as is when it is printable ASCII, else RFC 2047 `B` encoded-words (each at most 75
    /// characters, split between characters, folded onto continuation lines).
    static func encodedHeader(_ value: String) -> String {
        let oneLine = value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if oneLine.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return oneLine }
        var words: [String] = []
        var chunk = Data()
        for character in oneLine {
            let bytes = Data(String(character).utf8)
            // 45 bytes become 60 base64 characters; with "=?utf-8?B?" and "?=" a word stays under 75.
            if chunk.count + bytes.count > 45 {
                words.append("=?utf-8?B?\(chunk.base64EncodedString())?=")
                chunk = Data()
            }
            chunk.append(bytes)
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?\(chunk.base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    /// A part's content with CRLF endings: `7bit` when it is ASCII with lines of at most 998 characters
    /// (so links stay readable in the raw mail), else `base64` in lines of 76.
    static func body(_ text: String) -> (encoding: String, content: String) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        let plain = lines.allSatisfy { line in
            line.utf8.count <= 998 && line.unicodeScalars.allSatisfy { $0.isASCII && $0 != "\r" && $0 != "\0" }
        }
        if plain { return ("7bit", lines.joined(separator: "\r\n")) }
        let encoded = Data(text.utf8).base64EncodedString()
        var wrapped: [Substring] = []
        var rest = encoded[...]
        while !rest.isEmpty {
            wrapped.append(rest.prefix(76))
            rest = rest.dropFirst(76)
        }
        return ("base64", wrapped.joined(separator: "\r\n"))
    }

    /// A plain HTML rendering of the text: one paragraph per blank-line-separated block, everything escaped, a block
    /// that is a lone web address becomes a link. No styles, scripts or remote images.
    static func html(from text: String, title: String) -> String {
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let paragraphs = blocks.map { block -> String in
            let isLink =
                (block.hasPrefix("https://") || block.hasPrefix("http://"))
                && !block.contains(where: { $0.isWhitespace })
            if isLink { return "<p><a href=\"\(Markup.escaped(block))\">\(Markup.escaped(block))</a></p>" }
            return "<p>\(block.split(separator: "\n").map { Markup.escaped(String($0)) }.joined(separator: "<br>\n"))</p>"
        }
        return
            ([
                "<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\"><title>\(Markup.escaped(title))</title></head><body>",
            ] + paragraphs + ["</body></html>"]).joined(separator: "\n")
    }

    /// SMTP DATA transparency (RFC 5321 section 4.5.2): a line that starts with a dot gets one more.
    static func dotStuffed(_ message: String) -> String {
        message.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
            .joined(separator: "\r\n")
    }
}
