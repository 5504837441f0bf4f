import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import SocialService

/// Social's relationship-change feed, which other services' copies of the graph follow: every friendship and block
/// made or ended names both users, a long poll answers when one commits, and a reader too far behind starts again.
@Suite struct RelationshipChangeFeedTests {
    let tokens: RouterTestTokens
    let service: HTTPFields = [HTTPField.Name(PlatformHeaders.internalToken)!: SocialRouterTests.internalToken]

    init() async {
        tokens = await RouterTestTokens()
    }

    func app() async throws -> some ApplicationProtocol {
        try await SocialRouterTests().app(tokens)
    }

    func page(_ client: some TestClientProtocol, after: Int64? = nil, wait: Int = 0) async throws
        -> RelationshipChangePage
    {
        let query = after.map { "?after=\($0)&wait=\(wait)" } ?? ""
        let response = try await client.execute(
            uri: SocialPaths.internalRelationshipChanges + query, method: .get, headers: service)
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try JSONDecoder().decode(RelationshipChangePage.self, from: Data(response.body.readableBytesView))
    }

    @Test func friendshipsAndBlocksNameBothUsersAndFollowsNone() async throws {
        try await app().test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let bob = try await tokens.headers("u-bob")
            let start = try await page(client)
            #expect(start.users.isEmpty && !start.reset)
            // A follow, or a friend request not yet accepted, changes no friendship or block.
            _ = try await client.execute(
                uri: SocialPaths.follows, method: .post, headers: ann, body: ByteBuffer(string: #"{"userId":"u-bob"}"#))
            let sent = try await client.execute(
                uri: SocialPaths.friendRequests, method: .post, headers: ann,
                body: ByteBuffer(string: #"{"userId":"u-bob"}"#))
            #expect(try await page(client, after: start.last) == start)
            // Accepted while a poll waits: the poll answers with both users before its wait runs out (a poll the
            // commit did not wake answers after its whole wait; ChangeBellTests show the wake without a clock).
            struct Sent: Decodable { var id: String }
            let id = try JSONDecoder().decode(Sent.self, from: Data(sent.body.readableBytesView)).id
            let began = ContinuousClock.now
            async let woken = page(client, after: start.last, wait: 25)
            let accepted = try await client.execute(
                uri: SocialPaths.friendRequests + "/\(id)/accept", method: .post, headers: bob)
            #expect(accepted.status == .ok)
            let friends = try await woken
            #expect(Set(friends.users) == ["u-ann", "u-bob"] && friends.last > start.last)
            #expect(ContinuousClock.now - began < .seconds(25))
            // bob blocks ann (ending the friendship): both named, once each.
            _ = try await client.execute(uri: SocialPaths.blocks + "/u-ann", method: .put, headers: bob)
            let blocked = try await page(client, after: friends.last)
            #expect(blocked.users.sorted() == ["u-ann", "u-bob"])
            // A refused block changes nothing; the unblock does.
            _ = try await client.execute(uri: SocialPaths.blocks + "/u-bob", method: .put, headers: bob)
            _ = try await client.execute(uri: SocialPaths.blocks + "/u-cat", method: .delete, headers: bob)
            #expect(try await page(client, after: blocked.last).users.isEmpty)
            _ = try await client.execute(uri: SocialPaths.blocks + "/u-ann", method: .delete, headers: bob)
            let unblocked = try await page(client, after: blocked.last)
            #expect(Set(unblocked.users) == ["u-ann", "u-bob"])
            // A sequence this store never reached (it was replaced): start again.
            let ahead = try await page(client, after: unblocked.last + 100)
            #expect(ahead.reset && ahead.last == unblocked.last)
        }
    }

    @Test func onlyServicesReadTheFeedAndItsQueryIsChecked() async throws {
        try await app().test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let asUser = try await client.execute(
                uri: SocialPaths.internalRelationshipChanges, method: .get, headers: ann)
            #expect(asUser.status == .forbidden)
            for (query, code) in [
                ("?after=-1", "invalid_after"), ("?after=x", "invalid_after"),
                ("?after=99999999999999999999", "invalid_after"), ("?after=0&wait=26", "invalid_wait"),
                ("?after=0&wait=-1", "invalid_wait"),
            ] {
                let problem = try await client.problem(
                    .get, SocialPaths.internalRelationshipChanges + query, service)
                #expect(problem.statusCode == 400 && problem.code == code, "\(query)")
            }
        }
    }
}

/// The feed's long polls are woken by a bell social rings when a transaction that changed a friendship or a block
/// commits: on the production file database as on the tests' in-memory one.
@Suite struct RelationshipChangeBellTests {
    struct Refused: Error {}

    @Test(arguments: [false, true]) func theBellRingsWhenAChangeCommitsAndOnlyThen(onFile: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteSocialStore(
            onFile ? .file(directory.appendingPathComponent("social.sqlite").path) : .inMemory)
        let bell = ChangeBell()
        #expect(database.ringOnRelationshipChanges(bell) == nil)
        try await database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO follows (follower_id, followee_id, status, created_at) VALUES ('a', 'b', 'approved', ?)",
                arguments: [Date()])
        }
        #expect(bell.generation == 0, "a follow is no relationship change")
        try await database.block("a", "b", now: Date())
        #expect(bell.generation == 1)
        // A transaction that fails after adding a friendship is rolled back: no ring, nothing recorded.
        await #expect(throws: Refused.self) {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO friendships (user_low, user_high, created_at) VALUES ('c', 'd', ?)",
                    arguments: [Date()])
                throw Refused()
            }
        }
        #expect(bell.generation == 1)
        #expect(try await database.relationshipChanges(after: 0, limit: 10).users.sorted() == ["a", "b"])
    }
}
