import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Synchronization
import Testing

/// The internal client against a real service on loopback.
@Suite struct InternalClientTests {
    /// A service that counts the posts it receives and answers each with `status` and no body.
    func withCountingService(
        answering status: HTTPResponse.Status,
        _ body: @Sendable (_ client: InternalClient, _ posts: @Sendable () -> Int) async throws -> Void
    ) async throws {
        let posts = Counter()
        let router = Router()
        router.post("/internal/notices") { _, _ -> Response in
            posts.count.wrappingAdd(1, ordering: .relaxed)
            return Response(status: status)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { testClient in
            let port = try #require(testClient.port)
            // A timeout no loaded machine reaches: a post that merely took long would be retried and counted twice.
            let client = InternalClient(
                service: .notifications, baseURL: "http://127.0.0.1:\(port)", token: "internal", timeout: .seconds(60))
            try await body(client) { posts.count.load(ordering: .relaxed) }
        }
    }

    struct Note: Codable, Sendable { var text: String }

    final class Counter: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test(arguments: [HTTPResponse.Status.noContent, .accepted, .ok])
    func aDeliveryAnsweredWithAnEmptySuccessIsPostedOnce(status: HTTPResponse.Status) async throws {
        try await withCountingService(answering: status) { client, posts in
            let failure = await client.deliver("/internal/notices", body: Note(text: "hi"))
            #expect(failure == nil)
            #expect(posts() == 1)
        }
    }

    @Test func aFailedDeliveryIsTriedOnceMoreAndReported() async throws {
        try await withCountingService(answering: .serviceUnavailable) { client, posts in
            let failure = await client.deliver("/internal/notices", body: Note(text: "hi"))
            #expect(failure != nil)
            #expect(posts() == 2)
        }
    }
}
