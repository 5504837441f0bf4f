import Foundation
import Hummingbird
import JWTKit
import NIOCore
import ServiceLifecycle
import Synchronization

/// A local OpenID Connect issuer for tests: publishes a JWKS and signs ID tokens with its own ES256 key,
/// the way Google or Facebook would, and can rotate that key.
public final class FakeOIDCIssuer: Sendable {
    public let issuer = "https://issuer.test"
    public let audience = "platform-ios-client"
    /// The JWKS URL the identity service is configured with.
    public let jwksURL: String
    private let state: KeyState
    private let group: ServiceGroup

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
        public var azp: String?

        public func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The current signing key, its JWKS, and how often the JWKS was fetched.
    final class KeyState: Sendable {
        private struct Current {
            var keyID: String
            var key: ES256PrivateKey
            var generation: Int
            var fetches = 0
            var failuresToAnswer = 0
        }
        private let current: Mutex<Current>

        init() {
            current = Mutex(Current(keyID: "test-key-1", key: ES256PrivateKey(), generation: 1))
        }

        var signing: (keyID: String, key: ES256PrivateKey) { current.withLock { ($0.keyID, $0.key) } }
        var fetches: Int { current.withLock { $0.fetches } }

        func failNext(_ count: Int) { current.withLock { $0.failuresToAnswer = count } }

        /// Whether this fetch should fail (counting it as a fetch either way).
        func takeFailure() -> Bool {
            current.withLock { state in
                guard state.failuresToAnswer > 0 else { return false }
                state.failuresToAnswer -= 1
                state.fetches += 1
                return true
            }
        }

        func rotate() {
            current.withLock {
                $0.generation += 1
                $0.keyID = "test-key-\($0.generation)"
                $0.key = ES256PrivateKey()
            }
        }

        /// The JWKS document, counting the fetch.
        func jwks() -> String {
            let (keyID, key) = current.withLock { state in
                state.fetches += 1
                return (state.keyID, state.key)
            }
            let parameters = key.publicKey.parameters
            return """
                {"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"\(keyID)","x":"\(parameters?.x ?? "")","y":"\(parameters?.y ?? "")"}]}
                """
        }
    }

    /// Starts the issuer; `jwksLatency` makes each key-set answer take that long, like a remote issuer.
    public static func start(jwksLatency: Duration = .zero) async throws -> FakeOIDCIssuer {
        let state = KeyState()
        let router = Router()
        router.get("/jwks") { _, _ in
            if state.takeFailure() { return Response(status: .serviceUnavailable) }
            let document = state.jwks()
            if jwksLatency > .zero { try await Task.sleep(for: jwksLatency) }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: document)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "fake-oidc")))
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return FakeOIDCIssuer(state: state, group: group, jwksURL: "http://127.0.0.1:\(port)/jwks")
    }

    private init(state: KeyState, group: ServiceGroup, jwksURL: String) {
        self.state = state
        self.group = group
        self.jwksURL = jwksURL
    }

    /// How many times the JWKS was fetched.
    public var jwksFetches: Int { state.fetches }

    /// Makes the next `count` key-set fetches answer 503, like an issuer that is restarting.
    public func failNextKeyFetches(_ count: Int) {
        state.failNext(count)
    }

    /// Replaces the signing key (and its `kid`); the JWKS then publishes only the new key.
    public func rotateKey() {
        state.rotate()
    }

    /// An ID token for `subject`, valid for an hour from `now` unless told otherwise; `audiences` replaces the one
    /// audience (`audience`, else ours), `authorizedParty` sets `azp`.
    public func idToken(
        subject: String, email: String?, emailVerified: Bool = true, name: String? = "Test Traveller",
        nonce: String? = nil, audience: String? = nil, audiences: [String]? = nil, authorizedParty: String? = nil,
        issuer: String? = nil, keyID: String? = nil, now: Date, lifetime: TimeInterval = 3600
    ) async throws -> String {
        let claims = Claims(
            iss: .init(value: issuer ?? self.issuer), sub: .init(value: subject),
            aud: .init(value: audiences ?? [audience ?? self.audience]),
            exp: .init(value: now.addingTimeInterval(lifetime)), iat: .init(value: now), email: email,
            email_verified: BoolClaim(value: emailVerified), name: name, nonce: nonce, azp: authorizedParty)
        let signing = state.signing
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: signing.key, kid: JWKIdentifier(string: keyID ?? signing.keyID))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID ?? signing.keyID))
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
    }
}
