import AsyncHTTPClient
import Foundation
import PlatformKit
import TestSupport
import Testing

/// Key sets are fetched once, even when many tokens arrive together before the first fetch ends.
@Suite struct RemoteKeySetTests {
    @Test func concurrentFirstVerificationsShareOneFetch() async throws {
        let issuer = try await FakeOIDCIssuer.start(jwksLatency: .milliseconds(100))
        defer { Task { await issuer.stop() } }
        let clock = ManualClock(Date())
        let keySet = RemoteKeySet(url: issuer.jwksURL, httpClient: .platform, clock: clock.wallClock)
        let token = try await issuer.idToken(subject: "s", email: nil, now: clock.now)
        let verified = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask { try await keySet.verify(token, as: FakeOIDCIssuer.Claims.self).sub.value }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(verified == Array(repeating: "s", count: 50))
        #expect(issuer.jwksFetches == 1)
    }

    @Test func anIssuerThatCannotBeReachedMakesKeysUnavailableNotTokensInvalid() async throws {
        let issuer = try await FakeOIDCIssuer.start()
        defer { Task { await issuer.stop() } }
        let clock = ManualClock(Date())
        let keySet = RemoteKeySet(url: issuer.jwksURL, httpClient: .platform, clock: clock.wallClock)
        let token = try await issuer.idToken(subject: "s", email: nil, now: clock.now)
        // holding no keys, a failed fetch is tried once more at once
        issuer.failNextKeyFetches(2)
        await #expect(throws: KeySetError.unavailable) {
            try await keySet.verify(token, as: FakeOIDCIssuer.Claims.self)
        }
        // within a second of the failure nobody waits on another fetch
        await #expect(throws: KeySetError.unavailable) {
            try await keySet.verify(token, as: FakeOIDCIssuer.Claims.self)
        }
        #expect(issuer.jwksFetches == 2)
        // a second later the next request fetches again; one failure is absorbed by the retry
        clock.advance(by: 1)
        issuer.failNextKeyFetches(1)
        #expect(try await keySet.verify(token, as: FakeOIDCIssuer.Claims.self).sub.value == "s")
        #expect(issuer.jwksFetches == 4)
        // once keys are held, a failed refresh keeps verifying with them
        clock.advance(by: 3601)
        issuer.failNextKeyFetches(1)
        #expect(try await keySet.verify(token, as: FakeOIDCIssuer.Claims.self).sub.value == "s")
        #expect(issuer.jwksFetches == 5)
    }

    @Test func theCacheLifetimeComesFromCacheControl() {
        #expect(RemoteKeySet.maxAge("public, max-age=300, must-revalidate") == 300)
        #expect(RemoteKeySet.maxAge("no-cache") == nil)
        #expect(RemoteKeySet.maxAge(nil) == nil)
    }
}

/// When the issuer rotates its key, a token with the new `kid` makes the set refetch at once; a stream of
/// unknown `kid`s cannot make it refetch more than once per interval.
@Suite struct KeyRotationTests {
    @Test func anUnknownKeyIDRefreshesTheSetOncePerInterval() async throws {
        let issuer = try await FakeOIDCIssuer.start()
        defer { Task { await issuer.stop() } }
        let clock = ManualClock(Date())
        let keySet = RemoteKeySet(url: issuer.jwksURL, httpClient: .platform, clock: clock.wallClock)
        let before = try await issuer.idToken(subject: "a", email: nil, now: clock.now)
        _ = try await keySet.verify(before, as: FakeOIDCIssuer.Claims.self)
        #expect(issuer.jwksFetches == 1)
        // when the issuer rotates
        issuer.rotateKey()
        clock.advance(by: 11)
        let after = try await issuer.idToken(subject: "b", email: nil, now: clock.now)
        // then the new kid is fetched on first sight
        #expect(try await keySet.verify(after, as: FakeOIDCIssuer.Claims.self).sub.value == "b")
        #expect(issuer.jwksFetches == 2)
        // and made-up kids within the interval cost no fetch
        for kid in ["x1", "x2", "x3"] {
            let forged = try await issuer.idToken(subject: "c", email: nil, keyID: kid, now: clock.now)
            await #expect(throws: (any Error).self) { try await keySet.verify(forged, as: FakeOIDCIssuer.Claims.self) }
        }
        #expect(issuer.jwksFetches == 2)
    }
}
