import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import IdentityService

/// Where a test's identity reports ended sessions.
final class RecordingSessionSink: EndedSessionSink {
    private let ended = Mutex<[String]>([])

    func sessionsEnded(userID: String, sessionIDs: [String]) async {
        ended.withLock { $0 += sessionIDs }
    }

    var sessionIDs: [String] { ended.withLock { $0 } }
}

/// Sessions end on their own (issue 41): 90 days after sign-in however often they are refreshed, 30 days unused; a
/// refresh past either answers 401 `session_expired` and ends the session like any other.
@Suite struct SessionLifetimeTests {
    let clock = ManualClock()
    let sink = RecordingSessionSink()
    static let day: TimeInterval = 86_400

    func app(_ configure: (inout IdentityConfiguration) -> Void = { _ in }) async throws -> some ApplicationProtocol {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-session-\(UUID())").path
        var configuration = IdentityConfiguration(
            settings: ServiceSettings(
                service: .identity, database: .inMemory, internalToken: "t", clock: clock.wallClock),
            signingKey: Curve25519.Signing.PrivateKey(), bcryptCost: 4, mailFolder: folder, endedSessionSink: sink)
        configure(&configuration)
        return try await buildIdentityApplication(configuration)
    }

    struct Pair: Decodable {
        var accessToken: String
        var refreshToken: String
        var sessionId: String
    }

    func register(_ client: some TestClientProtocol) async throws -> Pair {
        let response = try await client.execute(
            uri: IdentityPaths.register, method: .post,
            body: ByteBuffer(string: #"{"email":"ann@example.com","username":"ann","password":"plum tree sky 42"}"#))
        #expect(response.status == .created)
        return try PlatformJSON.decoder.decode(Pair.self, from: Data(response.body.readableBytesView))
    }

    /// Refreshes `pair`: the next pair, or the problem.
    func refresh(_ client: some TestClientProtocol, _ pair: Pair) async throws -> Result<Pair, Problem> {
        let response = try await client.execute(
            uri: IdentityPaths.refresh, method: .post,
            body: ByteBuffer(string: #"{"refreshToken":"\#(pair.refreshToken)"}"#))
        let body = Data(response.body.readableBytesView)
        guard response.status == .ok else { return .failure(try JSONDecoder().decode(Problem.self, from: body)) }
        return .success(try PlatformJSON.decoder.decode(Pair.self, from: body))
    }

    @Test func aSessionUnusedForItsIdleLimitExpiresAndIsEnded() async throws {
        try await app().test(.router) { client in
            // given two sessions, one refreshed just before the idle limit, one just after
            let early = try await register(client)
            clock.advance(by: 30 * Self.day - 1)
            // when
            let refreshed = try await refresh(client, early)
            let signIn = try await client.execute(
                uri: IdentityPaths.login, method: .post,
                body: ByteBuffer(string: #"{"identifier":"ann","password":"plum tree sky 42"}"#))
            let late = try PlatformJSON.decoder.decode(Pair.self, from: Data(signIn.body.readableBytesView))
            clock.advance(by: 30 * Self.day + 1)
            let expired = try await refresh(client, late)
            // then
            #expect((try? refreshed.get()) != nil, "just before the idle limit")
            guard case .failure(let problem) = expired else {
                Issue.record("refreshed after 30 idle days")
                return
            }
            #expect(problem.statusCode == 401 && problem.code == "session_expired")
            // the session is ended as others are: reported (devices, streams) and published on the feed
            #expect(sink.sessionIDs.contains(late.sessionId))
            // and presented again it still says why, without ending it twice
            guard case .failure(let again) = try await refresh(client, late) else {
                Issue.record("an expired session came back")
                return
            }
            #expect(again.code == "session_expired")
            #expect(sink.sessionIDs.filter { $0 == late.sessionId }.count == 1)
        }
    }

    @Test func usingTheTokenKeepsTheIdleWindowMoving() async throws {
        try await app().test(.router) { client in
            // given a session refreshed every 29 days, twice (58 days: past the idle limit of its sign-in)
            var pair = try await register(client)
            for _ in 1...2 {
                clock.advance(by: 29 * Self.day)
                pair = try await refresh(client, pair).get()
            }
            // when it then goes unused for 30 days and a second (88 days after sign-in: within the absolute limit)
            clock.advance(by: 30 * Self.day + 1)
            // then it has expired, counted from its last use
            guard case .failure(let problem) = try await refresh(client, pair) else {
                Issue.record("refreshed after 30 idle days")
                return
            }
            #expect(problem.code == "session_expired")
        }
    }

    @Test func theAbsoluteLimitHoldsForASessionRefreshedEveryDay() async throws {
        try await app().test(.router) { client in
            // given a session refreshed every day
            let first = try await register(client)
            var pair = first
            for _ in 1..<90 {
                clock.advance(by: Self.day)
                pair = try await refresh(client, pair).get()
            }
            // when the 90th day after sign-in has passed
            clock.advance(by: Self.day - 1)
            pair = try await refresh(client, pair).get()
            clock.advance(by: 2)
            let expired = try await refresh(client, pair)
            // then
            guard case .failure(let problem) = expired else {
                Issue.record("refreshed after 90 days")
                return
            }
            #expect(problem.code == "session_expired")
            #expect(sink.sessionIDs == [first.sessionId])
        }
    }

    @Test func theLimitsAreSettings() async throws {
        // given a one-day idle limit
        try await app({ $0.sessionLifetime = SessionLifetime(absolute: 2 * Self.day, idle: Self.day) }).test(.router) {
            client in
            let pair = try await register(client)
            // when
            clock.advance(by: Self.day + 1)
            // then
            guard case .failure(let problem) = try await refresh(client, pair) else {
                Issue.record("refreshed after the configured idle limit")
                return
            }
            #expect(problem.code == "session_expired")
        }
    }
}

/// The periodic job: sessions past their lifetime that nobody presents are ended and reported, ended sessions are
/// deleted a week later, expired nonces at once.
@Suite struct SessionExpiryJobTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    @Test(arguments: StoreKind.allCases)
    func endsExpiredSessionsThenDeletesThemAndPrunesNonces(kind: StoreKind) async throws {
        let now = now
        try await withIdentityStore(kind) { database in
            // given three sessions: fresh, unused for 31 days, begun 91 days ago but used yesterday
            try await database.createUser(
                UserRecord(
                    id: "u1", email: "a@b.co", emailVerified: false, username: "ann", passwordHash: "x",
                    displayName: "",
                    bio: "", homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now))
            for (id, created, used) in [
                ("fresh", now, now),
                ("idle", now.addingTimeInterval(-31 * Self.day), now.addingTimeInterval(-31 * Self.day)),
                ("old", now.addingTimeInterval(-91 * Self.day), now.addingTimeInterval(-Self.day)),
            ] {
                try await database.createSession(
                    SessionRecord(id: id, userId: "u1", userAgent: nil, createdAt: created, lastUsedAt: used),
                    refreshTokenHash: "h-\(id)")
            }
            try await database.storeNonce(OIDCNonce(value: "live", expiresAt: now.addingTimeInterval(60)), now: now)
            try await database.storeNonce(OIDCNonce(value: "stale", expiresAt: now.addingTimeInterval(-1)), now: now)
            let clock = ManualClock(now)
            let sink = RecordingSessionSink()
            let job = SessionExpiry(store: database, lifetime: .standard, endedSessions: sink)
            // when
            try await job.run(now: clock.now)
            // then
            #expect(Set(sink.sessionIDs) == ["idle", "old"])
            #expect(
                try await database.activeSessions(userID: "u1", lifetime: .standard, now: now).map(\.id) == ["fresh"])
            let page = try await database.revocations(after: 0, now: now, limit: 10)
            #expect(Set(page.items.map(\.sessionId)) == ["idle", "old"], "published for the gateway and the services")
            let presented = try await database.rotate(
                refreshTokenHash: "h-idle", chain: ["next"], lifetime: .standard, now: now)
            guard case .expired(_, let sessionID, let endedNow) = presented else {
                Issue.record("an ended expired session still answers session_expired")
                return
            }
            #expect(sessionID == "idle" && !endedNow)
            #expect(try await database.consumeNonce(hash: OIDCNonce.lookupHash(of: "live")!, now: now))
            #expect(try await database.pruneNonces(now: now) == 0, "the stale nonce went with the job")
            // and a week later their rows are gone, the fresh one kept
            clock.advance(by: SessionExpiry.endedRetention + 1)
            try await job.run(now: clock.now)
            #expect(try await database.liveRefreshTokenHashes(sessionID: "idle").isEmpty)
            guard
                case .invalid = try await database.rotate(
                    refreshTokenHash: "h-idle", chain: ["next"], lifetime: .standard, now: clock.now)
            else {
                Issue.record("the deleted session's token is unknown")
                return
            }
            #expect(try await database.liveRefreshTokenHashes(sessionID: "fresh") == ["h-fresh"])
        }
    }
}
