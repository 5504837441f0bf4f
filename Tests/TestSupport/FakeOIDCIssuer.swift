import Foundation
import Hummingbird
import JWTKit
import NIOCore
import ServiceLifecycle
import Synchronization

/// A local OpenID Connect issuer for tests: publishes a JWKS and signs ID tokens with its own ES256 key,
/// the way Google or Facebook would.
public final class FakeOIDCIssuer: Sendable {
    public let issuer = "https://issuer.test"
    public let audience = "platform-ios-client"
    public let keyID = "test-key-1"
    private let keys: JWTKeyCollection
    private let group: ServiceGroup
    private let fetches: Counter
    /// How many times the JWKS was fetched.
    public var jwksFetches: Int { fetches.value }

    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }
    /// The JWKS URL the identity service is configured with.
    public let jwksURL: String

    /// The ID token claims a test can set.
    public struct Claims: JWTPayload {
        public var iss: IssuerClaim
        public var sub: SubjectClaim
        public var aud: AudienceClaim
        public var exp: ExpirationClaim
        public var iat: IssuedAtClaim
        public var email: String?
        public var email_verified: BoolClaim?
        public var name: String?
        public var nonce: String?

        public func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Starts the issuer; `jwksLatency` makes each key-set answer take that long, like a remote issuer.
    public static func start(jwksLatency: Duration = .zero) async throws -> FakeOIDCIssuer {
        let key = ES256PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: "test-key-1")
        guard let parameters = key.publicKey.parameters else { throw CancellationError() }
        let jwks = """
            {"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"test-key-1","x":"\(parameters.x)","y":"\(parameters.y)"}]}
            """
        let router = Router()
        let fetches = Counter()
        router.get("/jwks") { _, _ in
            fetches.increment()
            if jwksLatency > .zero { try await Task.sleep(for: jwksLatency) }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "fake-oidc")))
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return FakeOIDCIssuer(keys: keys, group: group, fetches: fetches, jwksURL: "http://127.0.0.1:\(port)/jwks")
    }

    private init(keys: JWTKeyCollection, group: ServiceGroup, fetches: Counter, jwksURL: String) {
        self.keys = keys
        self.group = group
        self.fetches = fetches
        self.jwksURL = jwksURL
    }

    /// An ID token for `subject`, valid for an hour from `now` unless told otherwise.
    public func idToken(
        subject: String, email: String?, emailVerified: Bool = true, name: String? = "Test Traveller",
        nonce: String? = nil,
        audience: String? = nil, issuer: String? = nil, now: Date, lifetime: TimeInterval = 3600
    ) async throws -> String {
        let claims = Claims(
            iss: .init(value: issuer ?? self.issuer), sub: .init(value: subject),
            aud: .init(value: [audience ?? self.audience]),
            exp: .init(value: now.addingTimeInterval(lifetime)), iat: .init(value: now), email: email,
            email_verified: BoolClaim(value: emailVerified), name: name, nonce: nonce)
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
    }
}
