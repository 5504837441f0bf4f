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
        /// TLS from the first byte (implicit TLS, RFC 8314; usually port 465).
        case tls
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    public var sender: String
    /// Trust roots for TLS; `nil` means the system's.
    public var trustRootsPEM: String?
    /// Whether credentials may cross an unencrypted connection (only ever for a local relay).
    public var allowsPlaintextAuth: Bool

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil,
        sender: String, trustRootsPEM: String? = nil, allowsPlaintextAuth: Bool = false
    ) {
        self.allowsPlaintextAuth = allowsPlaintextAuth
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.trustRootsPEM = trustRootsPEM
    }
}

/// A minimal SMTP client (RFC 5321) with STARTTLS (RFC 3207), implicit TLS (RFC 8314) and AUTH PLAIN and LOGIN
/// (RFC 4954).
///
/// Written by hand because none of the packages this project may use speaks SMTP; it sends one
/// message per connection, which is all an outbox that sends a few mails a minute needs.
struct SMTPTransport: MailTransport {
    let settings: SMTPSettings

    func send(_ message: MailMessage) async throws {
        let tlsContext = try settings.security == .plain ? nil : makeTLSContext()
        let host = settings.host
        let implicitTLS = settings.security == .tls ? tlsContext : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: implicitTLS, serverHostname: host))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(lines: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220)
            var capabilities = try await session.command("EHLO platform-identity", expect: 250)
            var encrypted = settings.security == .tls
            if settings.security == .startTLS, let tlsContext {
                guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                    throw SMTPError.unexpectedReply(command: "EHLO", reply: "no STARTTLS offered")
                }
                try await session.command("STARTTLS", expect: 220)
                try await startTLS(on: channel.channel, context: tlsContext)
                encrypted = true
                capabilities = try await session.command("EHLO platform-identity", expect: 250)
            }
            if let username = settings.username, let password = settings.password {
                guard encrypted || settings.allowsPlaintextAuth else { throw SMTPError.credentialsInTheClear }
                try await authenticate(&session, username: username, password: password, capabilities: capabilities)
            }
            try await session.command("MAIL FROM:<\(settings.sender)>", expect: 250)
            try await session.command("RCPT TO:<\(message.recipient)>", expect: 250, 251)
            try await session.command("DATA", expect: 354)
            try await session.command(Self.data(of: message, from: settings.sender), expect: 250, verb: "DATA end")
            _ = try? await session.command("QUIT", expect: 221)
        }
    }

    /// AUTH PLAIN when the server offers it (or offers nothing we know), else AUTH LOGIN.
    private func authenticate(
        _ session: inout SMTPSession, username: String, password: String, capabilities: [String]
    ) async throws {
        let mechanisms = Set(
            capabilities.lazy.map { $0.uppercased() }.filter { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }
                .flatMap { $0.dropFirst(5).split(separator: " ").map(String.init) })
        if mechanisms.contains("LOGIN") && !mechanisms.contains("PLAIN") {
            try await session.command("AUTH LOGIN", expect: 334)
            try await session.command(Data(username.utf8).base64EncodedString(), expect: 334, verb: "AUTH LOGIN user")
            try await session.command(Data(password.utf8).base64EncodedString(), expect: 235, verb: "AUTH LOGIN pass")
        } else {
            let credentials = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            try await session.command("AUTH PLAIN \(credentials)", expect: 235, verb: "AUTH PLAIN")
        }
    }

    private func makeTLSContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let pem = settings.trustRootsPEM {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        }
        return try NIOSSLContext(configuration: configuration)
    }

    private func startTLS(on channel: any Channel, context: NIOSSLContext) async throws {
        let host = settings.host
        try await channel.eventLoop.submit {
            let handler = try NIOSSLClientHandler(context: context, serverHostname: host)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
    }

    /// The DATA payload: the rendered message, dot-stuffed (RFC 5321 section 4.5.2), and the end mark.
    static func data(of message: MailMessage, from sender: String, date: Date = Date()) -> String {
        let rendered = MailFormat.render(
            message, from: sender, date: date, messageID: MailFormat.messageID(sender: sender))
        return MailFormat.dotStuffed(rendered) + "."
    }
}

/// Why an SMTP exchange failed.
enum SMTPError: Error, CustomStringConvertible {
    case unexpectedReply(command: String, reply: String)
    case connectionClosed
    /// Credentials would have crossed an unencrypted connection (set `SMTP_ALLOW_PLAINTEXT_AUTH` for a local relay).
    case credentialsInTheClear

    /// A 5xx reply or a refusal of ours: trying again will not help (RFC 5321 section 4.2.1).
    var isPermanent: Bool {
        switch self {
        case .unexpectedReply(_, let reply): reply.first == "5"
        case .connectionClosed: false
        case .credentialsInTheClear: true
        }
    }

    var description: String {
        switch self {
        case .unexpectedReply(let command, let reply): "SMTP \(command) answered \(reply)"
        case .connectionClosed: "SMTP server closed the connection"
        case .credentialsInTheClear: "SMTP credentials refused over an unencrypted connection"
        }
    }
}

/// One SMTP conversation: send a command line, read the (possibly multi-line) reply.
private struct SMTPSession {
    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Sends one line and returns the reply's text lines (after the code); `verb` names it in errors instead of the
    /// line itself, which may carry credentials or the message.
    @discardableResult
    mutating func command(_ line: String, expect codes: Int..., verb: String? = nil) async throws -> [String] {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        return try await expect(codes, command: verb ?? String(line.prefix(40)))
    }

    mutating func expect(_ codes: Int...) async throws {
        _ = try await expect(codes, command: "greeting")
    }

    private mutating func expect(_ codes: [Int], command: String) async throws -> [String] {
        var text: [String] = []
        while true {
            guard let buffer = try await lines.next() else { throw SMTPError.connectionClosed }
            let line = String(buffer: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
            text.append(String(line.dropFirst(4)))
            // "250-..." continues a multi-line reply; "250 ..." ends it.
            if line.count >= 4, line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
            guard let code = Int(line.prefix(3)), codes.contains(code) else {
                throw SMTPError.unexpectedReply(command: command, reply: String(line.prefix(200)))
            }
            return text
        }
    }
}
