import Foundation
import Logging
import PlatformKit
import Synchronization
import TestSupport
import Testing

@testable import IdentityService

/// Every kind of mail identity sends, delivered by the SMTP client to a real SMTP server process that requires TLS
/// and AUTH, and parsed there by a strict RFC 5322 / MIME parser.
@Suite(.serialized) struct MailDeliveryTests {
    static let token = "tok_Zq9-AbC.dEf_123"
    static let code = "042917"

    /// Each kind of message, with the link and code it must carry (none for the notice).
    static let kinds: [(name: String, message: MailMessage, link: String?, code: String?)] = [
        (
            "password reset",
            IdentityMail.passwordReset(
                to: "alice@example.com", token: token, code: code, resetURL: "https://app.example.com/reset-password",
                validMinutes: 60),
            "https://app.example.com/reset-password?token=\(token)", code
        ),
        (
            "e-mail verification",
            IdentityMail.verifyEmail(
                to: "alice@example.com", token: token, code: code,
                verificationURL: "https://app.example.com/verify-email?x=1",
                validHours: 24),
            "https://app.example.com/verify-email?x=1&token=\(token)", code
        ),
        ("password changed", IdentityMail.passwordChanged(to: "alice@example.com"), nil, nil),
    ]

    func settings(_ server: RealSMTPServer, _ security: SMTPSettings.Security) -> SMTPSettings {
        SMTPSettings(
            host: "localhost", port: server.port, security: security, username: server.username,
            password: server.password, sender: "no-reply@mail.platform.test", trustRootsPEM: server.certificatePEM)
    }

    @Test func everyKindOfMailArrivesWellFormedOverSTARTTLSWithAuthPlain() async throws {
        // given a server that requires STARTTLS and AUTH
        let server = try await RealSMTPServer.start(.startTLS)
        defer { server.stop() }
        // when each kind of mail is sent
        for kind in Self.kinds {
            try await SMTPTransport(settings: settings(server, .startTLS)).send(kind.message)
        }
        // then each arrived over TLS, parsed strictly, with every header and both parts
        let received = try server.received()
        #expect(received.count == Self.kinds.count)
        #expect(server.authentications() == Array(repeating: "PLAIN", count: Self.kinds.count))
        for (kind, mail) in zip(Self.kinds, received) {
            try check(mail, kind: kind)
        }
        #expect(Set(received.compactMap(\.messageID)).count == received.count, "every Message-ID is unique")
    }

    @Test func deliversOverImplicitTLSWithAuthLogin() async throws {
        // given a port-465 style server that offers only AUTH LOGIN
        let server = try await RealSMTPServer.start(.implicitTLS, onlyLogin: true)
        defer { server.stop() }
        // when
        try await SMTPTransport(settings: settings(server, .tls)).send(Self.kinds[0].message)
        // then
        let received = try server.received()
        #expect(received.count == 1)
        #expect(server.authentications() == ["LOGIN"])
        try check(try #require(received.first), kind: Self.kinds[0])
    }

    @Test func aNonASCIISubjectAndBodyAreEncoded() async throws {
        let server = try await RealSMTPServer.start(.startTLS)
        defer { server.stop() }
        let message = MailMessage(
            recipient: "zoe@example.com",
            subject: "Réinitialisez votre mot de passe — ça presse, vraiment très très longtemps",
            body: "Bonjour Zoë,\n.une ligne qui commence par un point\n\nhttps://example.com/a?b=<c>&d=\"e\"")
        try await SMTPTransport(settings: settings(server, .startTLS)).send(message)
        let mail = try #require(try server.received().first)
        #expect(mail.error == nil)
        #expect(mail.subject == message.subject)
        let parts = try #require(mail.parts)
        #expect(parts.first?.content.replacingOccurrences(of: "\r\n", with: "\n").hasPrefix(message.body) == true)
        let html = try #require(parts.last?.content)
        #expect(html.contains("Bonjour Zoë,<br>"))
        #expect(html.contains("&lt;c&gt;&amp;d=&quot;e&quot;"), "the HTML is escaped")
        #expect(!html.contains("<c>"))
    }

    @Test func refusesToSendCredentialsOverAnUnencryptedConnection() async throws {
        // given a plain relay and credentials
        let server = try await FakeSMTPServer.start()
        defer { Task { await server.stop() } }
        var settings = SMTPSettings(
            host: "127.0.0.1", port: server.port, security: .plain, username: "u", password: "p",
            sender: "me@platform.test")
        // when / then: refused, and nothing was sent
        await #expect(throws: SMTPError.self) {
            try await SMTPTransport(settings: settings).send(Self.kinds[2].message)
        }
        #expect(server.messages.isEmpty)
        // unless told to (a relay on the same host)
        settings.allowsPlaintextAuth = true
        try await SMTPTransport(settings: settings).send(Self.kinds[2].message)
        #expect(await server.nextMessage().recipients == ["alice@example.com"])
    }

    func check(
        _ mail: RealSMTPServer.Received, kind: (name: String, message: MailMessage, link: String?, code: String?)
    )
        throws
    {
        #expect(mail.error == nil, "\(kind.name): the strict parser accepts it")
        #expect(mail.tls, "\(kind.name): over TLS")
        #expect(!mail.bareLineFeeds, "\(kind.name): CRLF only")
        #expect(mail.date != nil)
        #expect(mail.messageID?.hasSuffix("@mail.platform.test>") == true, "\(kind.name): on the sender's domain")
        #expect(mail.mimeVersion == "1.0")
        #expect(mail.contentType == "multipart/alternative")
        #expect(mail.subject == kind.message.subject)
        #expect(mail.from == "no-reply@mail.platform.test")
        #expect(mail.to == "alice@example.com")
        let parts = try #require(mail.parts)
        #expect(parts.map(\.type) == ["text/plain", "text/html"])
        #expect(parts.allSatisfy { $0.charset == "utf-8" })
        let text = parts[0].content
        let html = parts[1].content
        #expect(text.contains(kind.message.body.split(separator: "\n")[0]), "the text is complete on its own")
        if let link = kind.link {
            #expect(text.contains(link))
            #expect(html.contains("href=\"\(Markup.escaped(link))\""))
        }
        if let code = kind.code {
            #expect(text.contains(code))
            #expect(html.contains(code))
        }
    }
}

@Suite struct MailFormatTests {
    let message = MailMessage(recipient: "a@example.com", subject: "Hi", body: "one\n.two\n\nthree")

    @Test func linesEndInCRLFAndDotsAreStuffed() {
        let data = SMTPTransport.data(of: message, from: "me@platform.test")
        #expect(!data.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(data.contains("\r\n..two\r\n"))
        #expect(data.hasSuffix("\r\n."))
    }

    @Test func theDateIsRFC5322InEnglishAndUTC() {
        #expect(MailFormat.rfc5322Date(Date(timeIntervalSince1970: 1_800_000_000)) == "Fri, 15 Jan 2027 08:00:00 +0000")
    }

    @Test func nonASCIIHeadersBecomeShortEncodedWords() {
        let encoded = MailFormat.encodedHeader(String(repeating: "é", count: 60))
        let words = encoded.components(separatedBy: "\r\n ")
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.hasPrefix("=?utf-8?B?") && $0.hasSuffix("?=") && $0.count <= 75 })
        #expect(MailFormat.encodedHeader("Plain\r\nBcc: x@y") == "Plain  Bcc: x@y", "no header injection")
    }

    @Test func messageIDsAreUniqueOnTheSendersDomain() {
        let first = MailFormat.messageID(sender: "no-reply@example.org")
        #expect(first.hasPrefix("<") && first.hasSuffix("@example.org>"))
        #expect(first != MailFormat.messageID(sender: "no-reply@example.org"))
    }
}

/// The outbox retries a temporary failure with back-off and gives up at once on a permanent one.
@Suite struct OutboxDeliveryTests {
    final class ScriptedTransport: MailTransport {
        let failure: Mutex<(any Error)?>
        let sent = Mutex<[MailMessage]>([])
        /// How long each send takes (so that two loops overlap).
        let pause: Duration
        init(failing error: (any Error)?, pause: Duration = .zero) {
            failure = Mutex(error)
            self.pause = pause
        }
        func send(_ message: MailMessage) async throws {
            if pause > .zero { try await Task.sleep(for: pause) }
            if let error = failure.withLock({ $0 }) { throw error }
            sent.withLock { $0.append(message) }
        }
    }

    let mail = MailMessage(recipient: "a@example.com", subject: "Hi", body: "text")

    @Test(arguments: StoreKind.allCases)
    func aTemporaryFailureIsRetriedWithBackOff(kind: StoreKind) async throws {
        let mail = mail
        try await withIdentityStore(kind) { database in
            // given a server answering 451
            let clock = ManualClock()
            try await database.enqueue(mail, now: clock.now)
            let transport = ScriptedTransport(
                failing: SMTPError.unexpectedReply(command: "RCPT", reply: "451 try again later"))
            let outbox = OutboxDelivery(
                store: database, transport: transport, clock: clock.wallClock, logger: Logger(label: "test"))
            // when
            await outbox.deliverDue()
            // then it waits 60 s before the next attempt, and delivers once the server recovers
            #expect(try await database.dueEmails(now: clock.now.addingTimeInterval(59), limit: 10).isEmpty)
            #expect(try await database.dueEmails(now: clock.now.addingTimeInterval(60), limit: 10).count == 1)
            transport.failure.withLock { $0 = nil }
            clock.advance(by: 60)
            await outbox.deliverDue()
            #expect(transport.sent.withLock { $0 } == [mail])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoReplicasDeliveringAtOnceSendEachMailOnce(kind: StoreKind) async throws {
        try await withIdentityStore(kind) { database in
            // given twenty queued messages and two delivery loops (two replicas) on one database
            let clock = ManualClock()
            let mails = (0..<20).map { MailMessage(recipient: "r\($0)@example.com", subject: "Hi", body: "text") }
            for mail in mails { try await database.enqueue(mail, now: clock.now) }
            let transport = ScriptedTransport(failing: nil, pause: .milliseconds(5))
            let loops = (0..<2).map { _ in
                OutboxDelivery(
                    store: database, transport: transport, clock: clock.wallClock, logger: Logger(label: "test"))
            }
            // when both deliver at once
            await withTaskGroup(of: Void.self) { group in
                for loop in loops { group.addTask { await loop.deliverDue() } }
            }
            // then every message was sent, and none twice
            let sent = transport.sent.withLock { $0 }
            #expect(sent.count == mails.count)
            #expect(Set(sent.map(\.recipient)) == Set(mails.map(\.recipient)))
            #expect(try await database.outboxEmails().allSatisfy { $0.sentAt != nil && $0.attempts == 1 })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPermanentFailureGivesUpAtOnceWithTheReason(kind: StoreKind) async throws {
        let mail = mail
        try await withIdentityStore(kind) { database in
            // given a server answering 550
            let clock = ManualClock()
            try await database.enqueue(mail, now: clock.now)
            let transport = ScriptedTransport(
                failing: SMTPError.unexpectedReply(command: "RCPT", reply: "550 no such user"))
            let outbox = OutboxDelivery(
                store: database, transport: transport, clock: clock.wallClock, logger: Logger(label: "test"))
            // when
            await outbox.deliverDue()
            // then it is not tried again (a day, a month later), and the reason is kept
            #expect(try await database.dueEmails(now: clock.now.addingTimeInterval(30 * 86_400), limit: 10).isEmpty)
            let record = try #require(try await database.outboxEmails().first)
            #expect(record.lastError?.contains("550 no such user") == true)
            #expect(record.attempts == 1)
        }
    }
}
