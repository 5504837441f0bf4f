import Foundation

/// Delivers mail: SMTP in production, a folder of .eml files in development.
protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws
}

/// Development delivery: each message becomes a file in a folder, so a developer can open the reset link
/// without a mail server while nothing secret reaches the log.
/// The files hold the message exactly as SMTP would carry it (`MailFormat`), so any mail program opens them.
struct FolderMailTransport: MailTransport {
    let directory: URL
    var sender = "no-reply@localhost"

    func send(_ message: MailMessage) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "\(Int(Date().timeIntervalSince1970 * 1000))-\(UUID().uuidString.prefix(8)).eml"
        let text = MailFormat.render(
            message, from: sender, date: Date(), messageID: MailFormat.messageID(sender: sender))
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
}
