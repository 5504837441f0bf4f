import Foundation

/// Delivers mail: SMTP in production, a folder of .eml files in development.
protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws
}

/// Development delivery: each message becomes a file in a folder, so a developer can open the reset link
/// without a mail server while nothing secret reaches the log.
struct FolderMailTransport: MailTransport {
    let directory: URL

    func send(_ message: MailMessage) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "\(Int(Date().timeIntervalSince1970 * 1000))-\(UUID().uuidString.prefix(8)).eml"
        let text = "To: \(message.recipient)\r\nSubject: \(message.subject)\r\n\r\n\(message.body)\r\n"
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
}
