import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlatformKit

/// The small pages behind the links identity mails (password reset, e-mail verification): plain accessible HTML with
/// no external assets, no scripts and no styles, so the strictest Content-Security-Policy holds.
enum LinkPage {
    /// `default-src 'none'` forbids every script, style, image, font and frame; the form may post only to us.
    static let contentSecurityPolicy = "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A whole page: the title as the heading, then `body` (already HTML).
    static func response(status: HTTPResponse.Status, title: String, body: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escaped(title))</title>
            </head>
            <body>
            <main>
            <h1>\(Markup.escaped(title))</h1>
            \(body)
            </main>
            </body>
            </html>
            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        // The page may carry the token in its form: never cached, anywhere.
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page that only says something (a result, or why a link no longer works).
    static func message(status: HTTPResponse.Status, title: String, _ text: String) -> Response {
        response(status: status, title: title, body: "<p role=\"status\">\(Markup.escaped(text))</p>")
    }

    /// The answer for a link that is unknown, used or expired.
    static func deadLink(what: String) -> Response {
        message(
            status: .badRequest, title: "This link no longer works",
            "This \(what) link has expired or was already used. Ask for a new one in the app.")
    }

    /// The new-password form; the token travels in the posted body (it is the proof, so no other CSRF token).
    static func resetForm(token: String, error: String? = nil) -> Response {
        let alert = error.map { "<p role=\"alert\" id=\"error\">\(Markup.escaped($0))</p>\n" } ?? ""
        let described = error == nil ? "" : " aria-describedby=\"error\""
        return response(
            status: error == nil ? .ok : .badRequest, title: "Choose a new password",
            body: """
                \(alert)<form method="post" action="/reset-password">
                <input type="hidden" name="token" value="\(Markup.escaped(token))">
                <p><label for="newPassword">New password (at least 10 characters)</label><br>
                <input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="10" maxlength="1024" required\(described)></p>
                <p><label for="confirmPassword">The same password again</label><br>
                <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" minlength="10" maxlength="1024" required></p>
                <p><button type="submit">Set the new password</button></p>
                </form>
                """)
    }

    /// The confirmation form: opening a link must not act by itself (mail scanners open links too).
    static func verifyForm(token: String) -> Response {
        response(
            status: .ok, title: "Confirm your e-mail address",
            body: """
                <form method="post" action="/verify-email">
                <input type="hidden" name="token" value="\(Markup.escaped(token))">
                <p><button type="submit">Confirm this address</button></p>
                </form>
                """)
    }

    /// The posted form's fields, or `nil` when the body is not a small URL-encoded form.
    static func form(_ request: Request) async throws -> [String: String]? {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
            let body = try? await request.body.collect(upTo: 16 << 10)
        else { return nil }
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            fields[name] = value
        }
        return fields
    }

}
