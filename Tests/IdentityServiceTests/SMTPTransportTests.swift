import Foundation
import TestSupport
import Testing

@testable import IdentityService

/// The hand-written SMTP client against a local server, in plain and STARTTLS modes.
@Suite struct SMTPTransportTests {
    let message = MailMessage(
        recipient: "alice@example.com", subject: "Hello",
        body: "line one\n.line starting with a dot\n.\nlast line")

    @Test func deliversOverPlainSMTP() async throws {
        let server = try await FakeSMTPServer.start()
        defer { Task { await server.stop() } }
        try await SMTPTransport(
            settings: .init(host: "127.0.0.1", port: server.port, security: .plain, sender: "me@platform.test")
        )
        .send(message)
        let received = await server.nextMessage()
        #expect(received.from == "me@platform.test")
        #expect(received.recipients == ["alice@example.com"])
        #expect(received.data.contains("Subject: Hello"))
        #expect(received.data.contains("\n.line starting with a dot\n.\nlast line"), "dot-stuffing round-trips")
        #expect(!received.encrypted)
    }

    @Test func upgradesWithSTARTTLS() async throws {
        let certificate = try SelfSignedCertificate.make()
        let server = try await FakeSMTPServer.start(tls: certificate.serverContext)
        defer { Task { await server.stop() } }
        let settings = SMTPSettings(
            host: "localhost", port: server.port, security: .startTLS, username: "user", password: "secret",
            sender: "me@platform.test", trustRootsPEM: certificate.certificatePEM)
        try await SMTPTransport(settings: settings).send(message)
        let received = await server.nextMessage()
        #expect(received.encrypted)
        #expect(received.recipients == ["alice@example.com"])
    }

    @Test func refusesToSendInTheClearWhenSTARTTLSIsRequired() async throws {
        let server = try await FakeSMTPServer.start()
        defer { Task { await server.stop() } }
        let settings = SMTPSettings(
            host: "127.0.0.1", port: server.port, security: .startTLS, sender: "me@platform.test")
        await #expect(throws: SMTPError.self) { try await SMTPTransport(settings: settings).send(message) }
        #expect(server.messages.isEmpty)
    }
}
