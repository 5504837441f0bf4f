import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// Two identity replicas on one PostgreSQL database, as a deployment runs them: what one learns, the other must
/// learn too.
@Suite struct IdentityReplicaTests {
    static let internalToken = "replica-test-internal-token"
    static let service: HTTPFields = [HTTPField.Name(PlatformHeaders.internalToken)!: internalToken]

    struct Pair: Decodable {
        var accessToken: String
        var sessionId: String
        var headers: HTTPFields { [.authorization: "Bearer \(accessToken)"] }
    }

    /// One replica: the same settings (database, signing key, clock) as every other.
    static func replica(_ url: PostgresURL, key: Curve25519.Signing.PrivateKey, clock: ManualClock) async throws
        -> some ApplicationProtocol
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-replica-\(UUID())").path
        return try await buildIdentityApplication(
            IdentityConfiguration(
                settings: ServiceSettings(
                    service: .identity, port: 0, database: .postgres(url), internalToken: internalToken,
                    logLevel: .warning, clock: clock.wallClock),
                signingKey: key, bcryptCost: 4, mailFolder: folder))
    }

    @Test func aSignOutOnOneReplicaEndsTheSessionOnTheOtherAndWakesItsFeed() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let key = Curve25519.Signing.PrivateKey()
        let clock = ManualClock()
        let first = try await Self.replica(url, key: key, clock: clock)
        let second = try await Self.replica(url, key: key, clock: clock)
        try await first.test(.router) { one in
            try await second.test(.router) { two in
                // given alice signed up on the first replica, and the second has verified her token
                let registered = try await one.execute(
                    uri: IdentityPaths.register, method: .post,
                    body: ByteBuffer(
                        string: #"{"email":"alice@example.com","username":"alice","password":"plum tree sky 42"}"#))
                #expect(registered.status == .created)
                let alice = try PlatformJSON.decoder.decode(Pair.self, from: Data(registered.body.readableBytesView))
                #expect(
                    try await two.execute(uri: IdentityPaths.me, method: .get, headers: alice.headers).status == .ok)
                // and a feed reader (the gateway) waits on the second replica after what it has read
                let start = try await two.execute(
                    uri: IdentityPaths.internalSessionRevocations, method: .get, headers: Self.service)
                let read = try PlatformJSON.decoder.decode(
                    SessionRevocationPage.self, from: Data(start.body.readableBytesView))
                let began = ContinuousClock.now
                async let poll = two.execute(
                    uri: IdentityPaths.internalSessionRevocations + "?after=\(read.last)&wait=20", method: .get,
                    headers: Self.service)
                // when she signs out on the first replica
                #expect(
                    try await one.execute(uri: IdentityPaths.logout, method: .post, headers: alice.headers).status
                        == .noContent)
                // then the second's poll answers with her session at once, not when its wait runs out
                let answer = try await poll
                let page = try PlatformJSON.decoder.decode(
                    SessionRevocationPage.self, from: Data(answer.body.readableBytesView))
                #expect(page.items.map(\.sessionId) == [alice.sessionId])
                #expect(ContinuousClock.now - began < .seconds(5))
                // and the second refuses her token, which it had verified before
                let refused = try await eventually(within: .seconds(5)) {
                    try await two.execute(uri: IdentityPaths.me, method: .get, headers: alice.headers).status
                        == .unauthorized
                }
                #expect(refused)
                let problem = try await two.problem(.get, IdentityPaths.me, alice.headers)
                #expect(problem.code == "session_ended")
            }
        }
    }
}
