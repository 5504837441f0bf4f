import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOSSL
import TestSupport
import Testing

@testable import NotificationsService

@Suite struct APNsDeliveryTests {
    let key = P256.Signing.PrivateKey()

    func withFake(
        unregistered: Set<String> = [], clock: @escaping @Sendable () -> Date = { Date() },
        _ body: (FakeAPNs, APNsDelivery) async throws -> Void
    ) async throws {
        let fake = try await FakeAPNs.start(unregistered: unregistered)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(fake.certificatePEM.utf8), format: .pem)])
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let delivery = try await APNsDelivery(
            settings: APNsSettings(
                teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: key.pemRepresentation,
                topic: "app.roomate.ios", baseURLOverride: fake.url, httpClient: client,
                // The fake answers from the test process's concurrency pool, which the whole suite keeps busy:
                // with the 10 s of production a push sometimes timed out before the fake got to answer it.
                requestTimeout: .seconds(120)),
            clock: clock)
        do {
            try await body(fake, delivery)
        } catch {
            try await client.shutdown()
            await fake.stop()
            throw error
        }
        try await client.shutdown()
        await fake.stop()
    }

    func message(_ token: String) -> PushMessage {
        PushMessage(
            deviceToken: token, environment: "production", notificationID: "n-1", kind: "household.chore_completed",
            text: "Sam took out the trash", link: "/v1/households/h/chores")
    }

    @Test func aPushGoesOverHTTP2WithASignedProviderToken() async throws {
        try await withFake { fake, delivery in
            let token = String(repeating: "ab", count: 32)
            let answer = try await delivery.post(message(token), token: try await delivery.providerToken(renew: false))
            #expect(answer.status == 200)
            #expect(answer.version == .http2)
            let push = try #require(fake.received.first)
            #expect(push.deviceToken == token)
            #expect(push.topic == "app.roomate.ios")
            #expect(push.pushType == "alert")
            #expect(
                (push.object["aps"] as? [String: Any])?["alert"] as? [String: String] == [
                    "body": "Sam took out the trash"
                ])
            #expect(push.object["link"] as? String == "/v1/households/h/chores")

            // The provider token is an ES256 JWT from our team, signed with our key.
            let jwt = try #require(push.authorization?.dropFirst("bearer ".count))
            let keys = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(pem: key.publicKey.pemRepresentation))
            let claims = try await keys.verify(String(jwt), as: APNsDelivery.ProviderClaims.self)
            #expect(claims.iss.value == "TEAM123456")
        }
    }

    @Test func aGoneTokenIsReportedUnregistered() async throws {
        let gone = String(repeating: "cd", count: 32)
        try await withFake(unregistered: [gone]) { _, delivery in
            #expect(await delivery.send(message(gone)) == .unregistered)
            #expect(await delivery.send(message(String(repeating: "ef", count: 32))) == .delivered)
        }
    }

    @Test func theProviderTokenIsReusedFor50Minutes() async throws {
        let clock = TestSupport.ManualClock()
        try await withFake(clock: { clock.now }) { _, delivery in
            let first = try await delivery.providerToken(renew: false)
            clock.advance(by: 49 * 60)
            #expect(try await delivery.providerToken(renew: false) == first)
            clock.advance(by: 2 * 60)
            #expect(try await delivery.providerToken(renew: false) != first)
        }
    }
}
