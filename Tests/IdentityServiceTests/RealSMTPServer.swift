import Foundation
import TestSupport

/// A real SMTP server in its own process (Python's `aiosmtpd`, installed by `.ci/run` from `.ci/requirements.txt`)
/// that requires TLS (STARTTLS, or implicit TLS) and AUTH, and parses every message it receives with Python's
/// `email` package under `policy.strict`, writing what it found as JSON. Not an in-process fake: what it accepts is
/// what a real server would.
final class RealSMTPServer {
    enum Mode: String { case startTLS = "starttls", implicitTLS = "tls" }

    /// What the server received and parsed, one message.
    struct Received: Decodable {
        var tls: Bool
        var bareLineFeeds: Bool
        var error: String?
        var date: String?
        var messageID: String?
        var mimeVersion: String?
        var contentType: String?
        var subject: String?
        var from: String?
        var to: String?
        var parts: [Part]?

        struct Part: Decodable {
            var type: String
            var charset: String?
            var content: String
        }
    }

    let port: Int
    let username = "mailer"
    let password = "s3cret"
    let certificatePEM: String
    private let process: Process
    private let directory: URL

    private init(port: Int, certificatePEM: String, process: Process, directory: URL) {
        self.port = port
        self.certificatePEM = certificatePEM
        self.process = process
        self.directory = directory
    }

    /// Starts the server; `onlyLogin` makes it offer AUTH LOGIN alone (to exercise the client's LOGIN path).
    static func start(_ mode: Mode, onlyLogin: Bool = false) async throws -> RealSMTPServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = try SelfSignedCertificate.make()
        try certificate.certificatePEM.write(
            to: directory.appendingPathComponent("cert.pem"), atomically: true, encoding: .utf8)
        try certificate.privateKeyPEM.write(
            to: directory.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try script.write(to: directory.appendingPathComponent("server.py"), atomically: true, encoding: .utf8)
        let messages = directory.appendingPathComponent("messages")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", directory.appendingPathComponent("server.py").path, directory.path, mode.rawValue,
            onlyLogin ? "PLAIN" : "",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The server writes its port once it listens (a process outside the test's clock: poll for it, up to 30 s,
        // as Python starting beside the whole suite on two cores can take seconds).
        let portFile = directory.appendingPathComponent("port")
        for _ in 0..<1_500 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                return RealSMTPServer(
                    port: port, certificatePEM: certificate.certificatePEM, process: process, directory: directory)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        throw ServerDidNotStart()
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var description: String {
            "the real SMTP server did not start: `python3 -m pip install -r .ci/requirements.txt` installs aiosmtpd"
        }
    }

    /// Every message received so far, in order (each is written before the server answers the end of DATA).
    func received() throws -> [Received] {
        let folder = directory.appendingPathComponent("messages")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            try JSONDecoder().decode(Received.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }

    /// The AUTH mechanisms clients used successfully, in order.
    func authentications() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("auth"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func stop() {
        // SIGKILL, not terminate(): a test process that runs services may ignore SIGTERM (ServiceLifecycle watches it
        // through a dispatch source), and an ignored signal stays ignored in the child.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private static let script = #"""
        import asyncio, email, email.policy, email.utils, json, os, signal, socket, ssl, sys
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        folder, mode, excluded = sys.argv[1], sys.argv[2], sys.argv[3]
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login == b"mailer" and data.password == b"s3cret"
            if ok:
                with open(os.path.join(folder, "auth"), "a") as f:
                    f.write(mechanism + "\n")
            return AuthResult(success=ok)

        class Handler:
            count = 0

            async def handle_DATA(self, server, session, envelope):
                raw = envelope.original_content
                result = {
                    "tls": session.ssl is not None or server.transport.get_extra_info("sslcontext") is not None,
                    "bareLineFeeds": b"\n" in raw.replace(b"\r\n", b"") or b"\r" in raw.replace(b"\r\n", b""),
                }
                try:
                    message = email.message_from_bytes(raw, policy=email.policy.strict)
                    email.utils.parsedate_to_datetime(str(message["Date"]))
                    result.update({
                        "date": str(message["Date"]), "messageID": str(message["Message-ID"]),
                        "mimeVersion": str(message["MIME-Version"]), "contentType": message.get_content_type(),
                        "subject": str(message["Subject"]), "from": str(message["From"]), "to": str(message["To"]),
                        "parts": [
                            {"type": part.get_content_type(), "charset": part.get_content_charset(),
                             "content": part.get_content()}
                            for part in message.iter_parts()
                        ],
                    })
                except Exception as error:
                    result["error"] = repr(error)
                Handler.count += 1
                path = os.path.join(folder, "messages", "%04d.json" % Handler.count)
                with open(path + ".tmp", "w") as f:
                    json.dump(result, f)
                os.rename(path + ".tmp", path)
                return "250 OK"

        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        options = dict(
            hostname="127.0.0.1", port=port, server_hostname="localhost", authenticator=authenticator,
            auth_required=True, auth_require_tls=True,
            auth_exclude_mechanism=[excluded] if excluded else None)
        if mode == "tls":
            # aiosmtpd counts only STARTTLS as encryption for AUTH; here TLS starts with the first byte (checked above).
            options["auth_require_tls"] = False
            controller = Controller(Handler(), ssl_context=context, **options)
        else:
            controller = Controller(Handler(), tls_context=context, require_starttls=True, **options)
        controller.start()
        with open(os.path.join(folder, "port.tmp"), "w") as f:
            f.write(str(port))
        os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
        try:
            asyncio.new_event_loop().run_forever()
        finally:
            controller.stop()
        """#
}
