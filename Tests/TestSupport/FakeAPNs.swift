import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A local stand-in for Apple's push service: HTTP/2 over TLS with a throwaway certificate. It records each
/// push and answers like APNs (200, or 410 `Unregistered` for tokens it was told are gone).
public final class FakeAPNs: Sendable {
    /// One push as APNs received it.
    public struct Push: Sendable {
        public var deviceToken: String
        public var authorization: String?
        public var topic: String?
        public var pushType: String?
        public var body: Data

        /// The JSON body as a loosely typed object.
        public var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    /// `https://localhost:<port>`.
    public let url: String
    /// The certificate clients must trust.
    public let certificatePEM: String
    private let recorder: Recorder
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(
        url: String, certificatePEM: String, recorder: Recorder, group: ServiceGroup, task: Task<Void, any Error>
    ) {
        self.url = url
        self.certificatePEM = certificatePEM
        self.recorder = recorder
        self.group = group
        self.task = task
    }

    /// Every push received so far, in order.
    public var received: [Push] { recorder.pushes.withLock { $0 } }

    private final class Recorder: Sendable {
        let pushes = Mutex<[Push]>([])
    }

    /// Starts the fake; pushes to `unregistered` tokens are answered 410.
    public static func start(unregistered: Set<String> = []) async throws -> FakeAPNs {
        let certificate = try SelfSignedCertificate.make()
        let recorder = Recorder()
        let router = Router()
        router.post("/3/device/:token") { request, context -> Response in
            let token = try context.parameters.require("token")
            let body = try await request.body.collect(upTo: 8 << 10)
            let push = Push(
                deviceToken: token, authorization: request.headers[.authorization],
                topic: request.headers[HTTPField.Name("apns-topic")!],
                pushType: request.headers[HTTPField.Name("apns-push-type")!], body: Data(body.readableBytesView))
            recorder.pushes.withLock { $0.append(push) }
            if unregistered.contains(token) {
                return Response(
                    status: .gone, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"reason":"Unregistered"}"#)))
            }
            return Response(status: .ok)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "fake-apns")
        logger.logLevel = .error
        let application = Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: certificate.serverConfiguration),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return FakeAPNs(
            url: "https://localhost:\(port)", certificatePEM: certificate.certificatePEM, recorder: recorder,
            group: group, task: task)
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
