import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import Synchronization

/// Credentials and endpoints for Apple Push Notification service with token-based (.p8 key) auth.
public struct APNsSettings: Sendable {
    /// The Apple developer team id (the provider token's issuer).
    public var teamID: String
    /// The id of the .p8 signing key.
    public var keyID: String
    /// The .p8 key's PEM text (a P-256 private key).
    public var privateKeyPEM: String
    /// The app's bundle id, sent as `apns-topic`.
    public var topic: String
    /// Overrides both environments' hosts (tests point it at a local fake).
    public var baseURLOverride: String?
    /// The client pushes go through; HTTP/2 is negotiated over TLS.
    public var httpClient: HTTPClient
    /// How long one push may take before it counts as failed.
    public var requestTimeout: TimeAmount

    public init(
        teamID: String, keyID: String, privateKeyPEM: String, topic: String, baseURLOverride: String? = nil,
        httpClient: HTTPClient = .shared, requestTimeout: TimeAmount = .seconds(10)
    ) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.topic = topic
        self.baseURLOverride = baseURLOverride
        self.httpClient = httpClient
        self.requestTimeout = requestTimeout
    }

    func baseURL(for environment: String) -> String {
        baseURLOverride
            ?? (environment == "sandbox" ? "https://api.sandbox.push.apple.com" : "https://api.push.apple.com")
    }
}

/// Pushes through APNs over HTTP/2 with a provider token (ES256 JWT), reused for 50 minutes as Apple asks
/// (at most one new token per 20 minutes, each valid for an hour).
final class APNsDelivery: PushDelivery {
    private let settings: APNsSettings
    private let keys: JWTKeyCollection
    private let clock: @Sendable () -> Date
    private let cachedToken = Mutex<(token: String, issuedAt: Date)?>(nil)
    static let tokenLifetime: TimeInterval = 50 * 60

    init(settings: APNsSettings, clock: @escaping @Sendable () -> Date) async throws {
        self.settings = settings
        self.clock = clock
        self.keys = JWTKeyCollection()
        await keys.add(
            ecdsa: try ES256PrivateKey(pem: settings.privateKeyPEM), kid: JWKIdentifier(string: settings.keyID))
    }

    /// What APNs answered, for the outcome and for tests.
    struct Answer: Sendable {
        var status: Int
        var reason: String?
        var version: HTTPVersion
    }

    func send(_ message: PushMessage) async -> PushOutcome {
        do {
            var answer = try await post(message, token: try await providerToken(renew: false))
            if answer.status == 403 && answer.reason == "ExpiredProviderToken" {
                answer = try await post(message, token: try await providerToken(renew: true))
            }
            switch (answer.status, answer.reason) {
            case (200, _): return .delivered
            case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .unregistered
            default: return .failed(reason: "\(answer.status) \(answer.reason ?? "")")
            }
        } catch {
            return .failed(reason: "\(error)")
        }
    }

    func post(_ message: PushMessage, token: String) async throws -> Answer {
        var request = HTTPClientRequest(
            url: settings.baseURL(for: message.environment) + "/3/device/" + message.deviceToken)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(token)")
        request.headers.add(name: "apns-topic", value: settings.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: "10")
        request.headers.add(name: "apns-id", value: message.notificationID)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(Payload(message))))
        let response = try await settings.httpClient.execute(request, timeout: settings.requestTimeout)
        let body = try await response.body.collect(upTo: 64 << 10)
        struct Failure: Decodable { var reason: String? }
        let reason = response.status == .ok ? nil : try? JSONDecoder().decode(Failure.self, from: body).reason
        return Answer(status: Int(response.status.code), reason: reason, version: response.version)
    }

    /// The current provider token, or a new one when it is 50 minutes old or APNs called it expired.
    func providerToken(renew: Bool) async throws -> String {
        let now = clock()
        if !renew, let cached = cachedToken.withLock({ $0 }),
            now.timeIntervalSince(cached.issuedAt) < Self.tokenLifetime
        {
            return cached.token
        }
        let token = try await keys.sign(
            ProviderClaims(iss: .init(value: settings.teamID), iat: .init(value: now)),
            kid: JWKIdentifier(string: settings.keyID))
        cachedToken.withLock { $0 = (token, now) }
        return token
    }

    struct ProviderClaims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The APNs JSON body: the alert, plus where the app should go when the notice is tapped.
    struct Payload: Encodable {
        struct APS: Encodable {
            struct Alert: Encodable { var body: String }
            var alert: Alert
            var sound = "default"
            var threadId: String

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case threadId = "thread-id"
            }
        }
        var aps: APS
        var link: String
        var notificationId: String
        var kind: String

        init(_ message: PushMessage) {
            aps = APS(alert: .init(body: message.text), threadId: message.kind)
            link = message.link
            notificationId = message.notificationID
            kind = message.kind
        }
    }
}
