import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

/// The outbox's delivery in batches (`/internal/deliveries`), against a stand-in notifications service.
@Suite struct OutboxBatchTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func message(_ key: String) -> OutboxMessage {
        OutboxMessage(
            kind: key.hasPrefix("e") ? .event : .notice, body: Data(#"{"key":"\#(key)"}"#.utf8), idempotencyKey: key)
    }

    /// What the stand-in received, post by post: the path and the keys of the entries it carried.
    final class Received: Sendable {
        let posts = Mutex<[(path: String, keys: [String])]>([])
    }

    /// Runs `body` with a delivery of an outbox holding `keys`, posting to a stand-in whose batch route answers
    /// `answer` for the keys it gets (`nil`: the stand-in has no batch route, as an older notifications service; an
    /// answer of `nil`: it refuses the batch whole, with a 400).
    func withDelivery(
        of keys: [String], answer: (@Sendable ([String]) -> [(Int, String?)]?)?,
        _ body: @escaping @Sendable (OutboxDelivery, any OutboxStorage, Received) async throws -> Void
    ) async throws {
        var migrator = DatabaseMigrator()
        OutboxMigrations.register(in: &migrator)
        let outbox = SQLiteOutbox(writer: try ServiceDatabase(.inMemory, migrator: migrator).writer)
        #expect(try await outbox.append(keys.map(message), limit: 100, now: now))
        let received = Received()
        let router = Router()
        if let answer {
            router.post(RouterPath(NotificationsPaths.internalDeliveries)) { request, _ -> Response in
                let got = try await Self.keys(in: request, batch: true)
                received.posts.withLock { $0.append((NotificationsPaths.internalDeliveries, got)) }
                guard let answered = answer(got) else { return Response(status: .badRequest) }
                let results = answered.map { status, code in ["status": status, "code": code as Any] }
                let json = try JSONSerialization.data(withJSONObject: ["results": results])
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
            }
        }
        for path in [NotificationsPaths.internalNotifications, NotificationsPaths.internalEvents] {
            router.post(RouterPath(path)) { request, _ -> HTTPResponse.Status in
                let got = try await Self.keys(in: request, batch: false)
                received.posts.withLock { $0.append((path, got)) }
                return .accepted
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let clock = ManualClock(now)
            let settings = ServiceSettings(service: .social, internalToken: "t", clock: clock.wallClock)
            let delivery = OutboxDelivery(
                outbox: outbox, address: ServiceAddress("http://127.0.0.1:\(port)"), settings: settings,
                logger: Logger(label: "test"))
            try await body(delivery, outbox, received)
        }
    }

    /// The `key`s of the bodies a post carried: of each entry of a batch, or of the one body.
    static func keys(in request: Request, batch entries: Bool) async throws -> [String] {
        let data = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let bodies = entries ? (object["entries"] as? [[String: Any]] ?? []).map { $0["body"] } : [object]
        return bodies.compactMap { ($0 as? [String: Any])?["key"] as? String }
    }

    @Test func oneBatchCarriesTheHeadAndAnEntryNotTakenWaitsWithThoseBehindIt() async throws {
        // given: five entries; notifications takes a and b, refuses c for good, and stops before d
        let answer: @Sendable ([String]) -> [(Int, String?)] = { _ in [(201, nil), (202, nil), (400, "invalid_kind")] }
        try await withDelivery(of: ["a", "e1", "c", "d", "e2"], answer: answer) { delivery, outbox, received in
            // when
            let result = try await delivery.deliverDue()
            // then: one post carried all five in order; a, e1 and c left the outbox, d and e2 wait
            #expect(received.posts.withLock { $0.map(\.path) } == [NotificationsPaths.internalDeliveries])
            #expect(received.posts.withLock { $0.first?.keys } == ["a", "e1", "c", "d", "e2"])
            #expect(result.done == 3 && result.failed)
            let waiting = try await outbox.waitingEntries()
            #expect(waiting.map(\.message.idempotencyKey) == ["d", "e2"])
            #expect(waiting.first?.attempts == 1)
        }
    }

    @Test func withoutTheBatchRouteEachEntryIsPostedToItsOwn() async throws {
        try await withDelivery(of: ["a", "e1", "b"], answer: nil) { delivery, outbox, received in
            let result = try await delivery.deliverDue()
            #expect(result.done == 3 && !result.failed)
            #expect(
                received.posts.withLock { $0.map(\.path) } == [
                    NotificationsPaths.internalNotifications, NotificationsPaths.internalEvents,
                    NotificationsPaths.internalNotifications,
                ])
            #expect(try await outbox.count() == 0)
        }
    }

    @Test func aBatchRefusedWholeIsPostedOneByOne() async throws {
        try await withDelivery(of: ["a", "e1"], answer: { _ in nil }) { delivery, outbox, received in
            let result = try await delivery.deliverDue()
            #expect(result.done == 2 && !result.failed)
            #expect(
                received.posts.withLock { $0.map(\.path) } == [
                    NotificationsPaths.internalDeliveries, NotificationsPaths.internalNotifications,
                    NotificationsPaths.internalEvents,
                ])
            #expect(try await outbox.count() == 0)
        }
    }
}
