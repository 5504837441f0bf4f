import Foundation
import Logging
import MessagingService
import PlatformKit
import ServiceKit
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// Two replicas of the messaging service on one PostgreSQL database, the gateway in front of the first and the
/// second called directly: what one replica writes, the other answers at once.
@Suite struct MessagingReplicaTests {
    /// Runs `body` with a second messaging replica built from `settings` (the first replica's, on port 0), and a
    /// client calling it directly.
    func withSecondReplica(
        _ settings: ServiceSettings, _ world: MessagingWorld, _ body: (APIClient) async throws -> Void
    ) async throws {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        var settings = settings
        settings.port = 0
        settings.onListening = { port in listening.yield(port) }
        let socialURL = try #require(world.stack.serviceURLs[.social])
        let replica = try await buildMessagingApplication(
            MessagingConfiguration(
                settings: settings, noticeSink: world.notices,
                socialGraph: SocialGraphClient(address: ServiceAddress(socialURL), token: settings.internalToken)))
        var logger = Logger(label: "test.replica")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [replica], logger: logger))
        let running = Task { try await group.run() }
        do {
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            try await body(APIClient(baseURL: "http://127.0.0.1:\(port)", contract: .platform))
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// The latest page is kept encoded under the conversation's revision: a post through the other replica bumps
    /// the revision in the database (a trigger), so the first replica reads the page again instead of answering
    /// the page it kept.
    @Test func aPostOnOneReplicaIsOnTheLatestPageOfTheOther() async throws {
        let settings = Mutex<ServiceSettings?>(nil)
        try await MessagingWorld.run(
            postgres: TestStack.postgresByDefault.union([.messaging]),
            onMessagingSettings: { built in settings.withLock { $0 = built } }
        ) { world in
            let first = try #require(settings.withLock { $0 })
            try await withSecondReplica(first, world) { second in
                // given a group whose latest page the first replica keeps
                let group = try await world.group(world.ann, with: [world.bob, world.cat])
                try await world.message(world.ann, group, "one")
                let latest = world.path(group, "/messages?limit=20")
                for _ in 0..<2 {
                    #expect(try world.texts(await world.api.get(latest, token: world.bob.accessToken)) == ["one"])
                }
                // when bob posts through the second replica
                let posted = try await second.post(
                    world.path(group, "/messages"), token: world.bob.accessToken,
                    json: MessagingWorld.MessageBody(text: "two"))
                #expect(posted.status == 201, "\(posted.text)")
                // then the first replica's latest page has it, and the second replica sees the first's writes
                #expect(
                    try world.texts(await world.api.get(latest, token: world.bob.accessToken)) == ["one", "two"])
                try await world.message(world.ann, group, "three")
                #expect(
                    try world.texts(await second.get(latest, token: world.bob.accessToken)) == ["one", "two", "three"])
            }
        }
    }

    /// Posts into one conversation through both replicas at once: distinct ids, and paging forward by cursor
    /// through either replica meets every message once, in order.
    @Test func postsThroughBothReplicasAtOncePageInOneOrder() async throws {
        let settings = Mutex<ServiceSettings?>(nil)
        try await MessagingWorld.run(
            postgres: TestStack.postgresByDefault.union([.messaging]),
            onMessagingSettings: { built in settings.withLock { $0 = built } }
        ) { world in
            let first = try #require(settings.withLock { $0 })
            try await withSecondReplica(first, world) { second in
                let group = try await world.group(world.ann, with: [world.bob, world.cat])
                let path = world.path(group, "/messages")
                let ids = try await withThrowingTaskGroup(of: Int.self) { tasks in
                    for index in 0..<20 {
                        let client = index.isMultiple(of: 2) ? world.api : second
                        let user = index.isMultiple(of: 2) ? world.ann : world.bob
                        tasks.addTask {
                            let response = try await client.post(
                                path, token: user.accessToken, json: MessagingWorld.MessageBody(text: "m\(index)"))
                            return try response.decode(WireMessage.self).id
                        }
                    }
                    return try await tasks.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(Set(ids).count == 20)
                var paged: [Int] = []
                var next: String? = path + "?anchor=oldest&limit=6"
                while let page = next {
                    let response = try await second.get(page, token: world.ann.accessToken)
                    let decoded = try response.decode(WireMessagePage.self)
                    paged += decoded.items.map(\.id)
                    next = decoded.newerCursor.map { path + "?limit=6&cursor=\($0)" }
                }
                #expect(paged == ids.sorted())
            }
        }
    }
}
