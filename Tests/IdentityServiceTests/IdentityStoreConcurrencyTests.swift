import Foundation
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import IdentityService

/// What several replicas writing one database at once must not break: single-use things used once, mail sent once,
/// the revocation feed read without a gap; and the directory's ranking, order and cursor, on both engines.
@Suite struct IdentityStoreConcurrencyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` `count` times at once and returns what each returned.
    func race<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: T.self) { group in
            for index in 0..<count { group.addTask { try await body(index) } }
            return try await group.reduce(into: [T]()) { $0.append($1) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNonceAResetTokenAndARefreshTokensFirstUseAreTakenOnceByRacingReplicas(kind: StoreKind) async throws {
        let now = now
        try await withAliceSignedIn(kind, now: now) { store in
            // a nonce presented eight times at once
            let nonce = OIDCNonce.issue(now: now)
            try await store.storeNonce(nonce, now: now)
            let consumed = try await race(8) { _ in try await store.consumeNonce(hash: nonce.hash, now: now) }
            #expect(consumed.filter { $0 }.count == 1)

            // a reset link opened six times at once
            try await store.createResetToken(
                PasswordResetTokenRecord(
                    tokenHash: "r1", userId: "u1", createdAt: now, expiresAt: now.addingTimeInterval(1800)),
                mail: MailMessage(recipient: "a@b.co", subject: "s", body: "b"))
            let resets = try await race(6) { index in
                try await store.resetPassword(
                    tokenHash: "r1", userID: "u1", passwordHash: "new\(index)", notice: nil, now: now)
            }
            #expect(resets.compactMap { $0 }.count == 1)

            // a refresh token presented six times at once by an app racing itself: one chain, one live token
            try await store.createSession(
                SessionRecord(id: "s2", userId: "u1", userAgent: nil, createdAt: now, lastUsedAt: now),
                refreshTokenHash: "t1")
            let rotations = try await race(6) { _ in
                try await store.rotate(refreshTokenHash: "t1", chain: ["t2", "t3"], lifetime: .standard, now: now)
            }
            for outcome in rotations {
                guard case .rotated(_, _, index: 0) = outcome else {
                    Issue.record("every racer inside the grace window gets the chain's next token: \(outcome)")
                    continue
                }
            }
            #expect(try await store.liveRefreshTokenHashes(sessionID: "s2") == ["t2"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func wrongCodesTriedAtOnceAreAllCountedAndSpendTheToken(kind: StoreKind) async throws {
        let now = now
        try await withAliceSignedIn(kind, now: now) { store in
            // given a reset token whose code is 123456
            let code = "123456"
            try await store.createResetToken(
                PasswordResetTokenRecord(
                    tokenHash: "r1", userId: "u1", createdAt: now, expiresAt: now.addingTimeInterval(1800),
                    codeHash: MailCode.hash(code, tokenHash: "r1")),
                mail: MailMessage(recipient: "a@b.co", subject: "s", body: "b"))
            // when as many wrong codes as allowed arrive at once
            let answers = try await race(MailCode.maximumTries) { index in
                try await store.resetTokenHash(email: "A@B.CO", code: String(format: "%06d", index), now: now)
            }
            // then none matched, every one was counted, and the right code no longer opens the token
            #expect(answers.allSatisfy { $0 == nil })
            #expect(try await store.resetTokenHash(email: "a@b.co", code: code, now: now) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deliveryLoopsClaimingAtOnceEachGetDifferentMail(kind: StoreKind) async throws {
        let now = now
        try await withIdentityStore(kind) { store in
            for index in 0..<30 {
                try await store.enqueue(MailMessage(recipient: "r\(index)@x.co", subject: "s", body: "b"), now: now)
            }
            // when three loops (three replicas) claim until nothing is left
            let claimed = try await race(3) { _ in
                var mine: [Int64] = []
                while true {
                    let batch = try await store.claimDueEmails(now: now, limit: 4, lease: 600)
                    if batch.isEmpty { return mine }
                    mine += batch.compactMap(\.id)
                }
            }
            // then each message went to exactly one loop, and none is due again before the lease ends
            let all = claimed.flatMap { $0 }
            #expect(all.count == 30 && Set(all).count == 30)
            #expect(try await store.dueEmails(now: now.addingTimeInterval(599), limit: 50).isEmpty)
            #expect(try await store.dueEmails(now: now.addingTimeInterval(600), limit: 50).count == 30)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theFeedReadWhileSessionsEndAtOnceMissesNone(kind: StoreKind) async throws {
        let now = now
        try await withIdentityStore(kind) { store in
            let sessions = (0..<40).map { "s\($0)" }
            for (index, session) in sessions.enumerated() {
                try await store.createUser(
                    testUser("u\(index)", username: "user\(index)", email: "u\(index)@x.co", now: now))
                try await store.createSession(
                    SessionRecord(id: session, userId: "u\(index)", userAgent: nil, createdAt: now, lastUsedAt: now),
                    refreshTokenHash: "h\(index)")
            }
            let start = try await store.revocations(after: nil, now: now, limit: 0).last
            let done = Flag()
            // a reader polling the feed as the gateway does, while forty sessions end at once
            async let read: [SessionRevocation] = {
                var last = start
                var seen: [SessionRevocation] = []
                var finished = false
                while !finished {
                    finished = done.isSet
                    let page = try await store.revocations(after: last, now: now, limit: 1000)
                    seen += page.items
                    last = page.last
                }
                return seen
            }()
            _ = try await race(sessions.count) { index in
                try await store.revokeSession(id: "s\(index)", userID: "u\(index)", reason: "logout", now: now)
            }
            done.set()
            let seen = try await read
            // then the reader saw every ended session once, in increasing sequence
            #expect(Set(seen.map(\.sessionId)) == Set(sessions))
            #expect(seen.count == sessions.count)
            #expect(seen.map(\.sequence) == seen.map(\.sequence).sorted())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDirectoryRanksOrdersAndPagesAlikeOnBothEngines(kind: StoreKind) async throws {
        let now = now
        try await withIdentityStore(kind) { store in
            // given names whose order differs between byte, NOCASE and locale orders, and LIKE's wildcards
            for (index, (username, displayName)) in [
                ("al", ""), ("Alex", ""), ("alba", ""), ("al_z", ""), ("hal", ""), ("zed", "Al"),
                ("x100", "100% sure"), ("x1000", "1000 sure"), ("me", "al"),
            ].enumerated() {
                try await store.createUser(
                    testUser(
                        "u\(index)", username: username, email: "u\(index)@x.co", displayName: displayName, now: now))
            }
            try await store.createUser(
                testUser("nameless", username: nil, email: "n@x.co", displayName: "al", now: now))
            // when "al" is searched by "me", two at a time
            var pages: [[String]] = []
            var cursor: DirectoryCursor?
            repeat {
                let rows = try await store.directory(matching: "al", viewer: "u8", after: cursor, limit: 2)
                pages.append(rows.map { "\($0.rank):\($0.user.username ?? "")" })
                cursor = rows.last.map { DirectoryCursor(rank: $0.rank, username: $0.user.username ?? "") }
            } while pages.last?.count == 2
            // then exact matches, then prefixes, then the rest, each in NOCASE order, without the viewer
            #expect(
                pages.flatMap { $0 } == ["0:al", "0:zed", "1:al_z", "1:alba", "1:Alex", "2:hal"])
            // and LIKE's wildcards in the text mean themselves
            #expect(
                try await store.directory(matching: "0%", viewer: "u8", after: nil, limit: 10).map(\.user.username)
                    == ["x100"])
            #expect(
                try await store.directory(matching: "l_", viewer: "u8", after: nil, limit: 10).map(\.user.username)
                    == ["al_z"])
            // and browsing without a query pages in the same order
            var browsed: [String] = []
            var after: String?
            repeat {
                let page = try await store.directory(viewer: "u8", after: after, limit: 3)
                browsed += page.compactMap(\.username)
                after = page.last?.username
                if page.count < 3 { break }
            } while true
            #expect(browsed == ["al", "al_z", "alba", "Alex", "hal", "x100", "x1000", "zed"])
        }
    }
}

/// A flag one task sets and another reads.
final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
