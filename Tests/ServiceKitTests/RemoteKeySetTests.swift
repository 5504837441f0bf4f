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

    @Test func theCacheLifetimeComesFromCacheControl() {
        #expect(RemoteKeySet.maxAge("public, max-age=300, must-revalidate") == 300)
        #expect(RemoteKeySet.maxAge("no-cache") == nil)
        #expect(RemoteKeySet.maxAge(nil) == nil)
    }
}
