import Foundation
import Logging
import PlatformKit
import ServiceKit
import ServiceLifecycle
import TestSupport
import Testing

@testable import SocialService

/// Two replicas of the social service on one PostgreSQL database, called directly: a relationship change committed
/// through one wakes a change-feed long poll waiting on the other, and a consumer following the feed through both
/// meets every change once, in order.
@Suite struct SocialReplicaTests {
    let service = [(PlatformHeaders.internalToken, SocialRouterTests.internalToken)]

    /// Runs `body` with two replicas on one fresh PostgreSQL database, a client calling each.
    func withTwoReplicas(_ body: (APIClient, APIClient) async throws -> Void) async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        var logger = Logger(label: "test.social.replicas")
        logger.logLevel = .warning
        var services: [any Service] = []
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        for _ in 0..<2 {
            var settings = ServiceSettings(
                service: .social, database: .postgres(url), internalToken: SocialRouterTests.internalToken)
            settings.port = 0
            settings.onListening = { port in listening.yield(port) }
            services.append(
                try await buildSocialApplication(
                    SocialConfiguration(
                        settings: settings, noticeSink: SocialRouterTests.Notices(),
                        userDirectory: SocialRouterTests.Directory(), verifier: .userIDTokens(clock: .system))))
        }
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        let running = Task { try await group.run() }
        do {
            var iterator = ports.makeAsyncIterator()
            let first = try #require(await iterator.next())
            let second = try #require(await iterator.next())
            try await body(
                APIClient(baseURL: "http://127.0.0.1:\(first)"), APIClient(baseURL: "http://127.0.0.1:\(second)"))
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    func changes(_ client: APIClient, after: Int64? = nil, wait: Int = 0) async throws -> RelationshipChangePage {
        let query = after.map { "?after=\($0)&wait=\(wait)" } ?? ""
        let response = try await client.get(SocialPaths.internalRelationshipChanges + query, headers: service)
        #expect(response.status == 200, "\(response.text)")
        return try response.json(RelationshipChangePage.self)
    }

    @Test func aChangeOnOneReplicaWakesALongPollOnTheOther() async throws {
        try await withTwoReplicas { first, second in
            // given a long poll waiting on the second replica
            let start = try await changes(second)
            let began = ContinuousClock.now
            async let woken = changes(second, after: start.last, wait: 20)
            try await Task.sleep(for: .milliseconds(300))
            // when ann and bob become friends through the first
            let sent = try await first.post(SocialPaths.friendRequests, token: "u-ann", json: ["userId": "u-bob"])
            #expect(sent.status == 201, "\(sent.text)")
            let id = try #require(sent.object["id"] as? String)
            let accepted = try await first.post(SocialPaths.friendRequests + "/\(id)/accept", token: "u-bob")
            #expect(accepted.status == 200, "\(accepted.text)")
            // then the poll answers with both, long before its wait runs out
            let page = try await woken
            #expect(Set(page.users) == ["u-ann", "u-bob"] && page.last > start.last)
            #expect(ContinuousClock.now - began < .seconds(15))
        }
    }

    @Test func aConsumerFollowingTheFeedThroughBothReplicasMeetsEveryChangeOnce() async throws {
        try await withTwoReplicas { first, second in
            let replicas = [first, second]
            var last = try await changes(first).last
            for index in 0..<6 {
                // when ann blocks or unblocks someone through one replica
                let path = SocialPaths.blocks + "/u-x\(index / 2)"
                let response =
                    index.isMultiple(of: 2)
                    ? try await replicas[index % 2].put(path, token: "u-ann", body: Data())
                    : try await replicas[index % 2].delete(path, token: "u-ann")
                #expect(response.status == 204, "\(response.text)")
                // then the next page through the other replica names both, once, and nothing else
                let page = try await changes(replicas[(index + 1) % 2], after: last)
                #expect(page.users.sorted() == ["u-ann", "u-x\(index / 2)"] && !page.reset, "change \(index)")
                last = page.last
            }
            #expect(try await changes(first, after: last).users.isEmpty)
            #expect(try await changes(second, after: last).users.isEmpty)
        }
    }
}
