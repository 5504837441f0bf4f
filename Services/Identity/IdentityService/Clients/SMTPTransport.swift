import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL

/// Where and how to reach the SMTP relay.
public struct SMTPSettings: Sendable, Equatable {
    public enum Security: String, Sendable {
        /// No encryption (a local relay or a test server).
        case plain
        /// Upgrade the connection with STARTTLS before authenticating; fail if the server cannot.
        case startTLS = "starttls"
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    public var sender: String
    /// Trust roots for STARTTLS; `nil` means the system's.
    public var trustRootsPEM: String?

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil,
        sender: String, trustRootsPEM: String? = nil
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.trustRootsPEM = trustRootsPEM
    }
}

/// A minimal SMTP client (RFC 5321) with STARTTLS (RFC 3207) and AUTH PLAIN (RFC 4954).
///
/// Written by hand because none of the packages this project may use speaks SMTP; it sends one
/// message per connection, which is all an outbox that sends a few mails a minute needs.
struct SMTPTransport: MailTransport {
    let settings: SMTPSettings

    func send(_ message: MailMessage) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(lines: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220)
            try await session.command("EHLO platform-identity", expect: 250)
            if settings.security == .startTLS {
                try await session.command("STARTTLS", expect: 220)
                try await startTLS(on: channel.channel)
                try await session.command("EHLO platform-identity", expect: 250)
            }
            if let username = settings.username, let password = settings.password {
                let credentials = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
                try await session.command("AUTH PLAIN \(credentials)", expect: 235, redacted: true)
            }
            try await session.command("MAIL FROM:<\(settings.sender)>", expect: 250)
            try await session.command("RCPT TO:<\(message.recipient)>", expect: 250, 251)
            try await session.command("DATA", expect: 354)
            try await session.command(Self.data(of: message, from: settings.sender), expect: 250)
            try? await session.command("QUIT", expect: 221)
        }
    }

    private func startTLS(on channel: any Channel) async throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let pem = settings.trustRootsPEM {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        }
        let context = try NIOSSLContext(configuration: configuration)
        let host = settings.host
        try await channel.eventLoop.submit {
            let handler = try NIOSSLClientHandler(context: context, serverHostname: host)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
    }

    /// The DATA payload: headers, the body with lines dot-stuffed (RFC 5321 section 4.5.2), and the end mark.
    static func data(of message: MailMessage, from sender: String) -> String {
        let date = Date().formatted(.iso8601)
        let body = message.body.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        .joined(separator: "\r\n")
        return [
            "From: <\(sender)>", "To: <\(message.recipient)>", "Subject: \(message.subject)", "Date: \(date)",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "",
            body, ".",
        ].joined(separator: "\r\n")
    }
}

/// Why an SMTP exchange failed.
enum SMTPError: Error, CustomStringConvertible {
    case unexpectedReply(command: String, reply: String)
    case connectionClosed

    var description: String {
        switch self {
        case .unexpectedReply(let command, let reply): "SMTP \(command) answered \(reply)"
        case .connectionClosed: "SMTP server closed the connection"
        }
    }
}

/// One SMTP conversation: send a command line, read the (possibly multi-line) reply.
private struct SMTPSession {
    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    mutating func command(_ line: String, expect codes: Int..., redacted: Bool = false) async throws {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        let verb = redacted ? String(line.prefix(10)) : String(line.prefix(while: { $0 != "\r" }).prefix(40))
        try await expect(codes, command: verb)
    }

    mutating func expect(_ codes: Int...) async throws {
        try await expect(codes, command: "greeting")
    }

    private mutating func expect(_ codes: [Int], command: String) async throws {
        while true {
            guard let buffer = try await lines.next() else { throw SMTPError.connectionClosed }
            let line = String(buffer: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
            // "250-..." continues a multi-line reply; "250 ..." ends it.
            if line.count >= 4, line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
            guard let code = Int(line.prefix(3)), codes.contains(code) else {
                throw SMTPError.unexpectedReply(command: command, reply: line)
            }
            return
        }
    }
}
