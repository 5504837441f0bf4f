import Foundation
import Logging
import PlatformKit
import ServiceKit
import Synchronization

extension OutboxNoticeSink {
    /// A sink appending to a store's `outbox`, as the service wires it, whose delivery goes nowhere (port 1): what it
    /// appends stays in the outbox for ``OutboxStorage/waitingEntries()`` to read.
    public static func undelivered(_ outbox: any OutboxStorage, producer: ServiceName) -> OutboxNoticeSink {
        let delivery = OutboxDelivery(
            outbox: outbox, address: "http://127.0.0.1:1",
            settings: ServiceSettings(service: producer, internalToken: "t"), logger: Logger(label: "test"))
        return OutboxNoticeSink(
            outbox: outbox, producer: producer, limit: 10, clock: .system, delivery: delivery,
            logger: Logger(label: "test"))
    }
}

extension OutboxStorage {
    /// The entries waiting, oldest first (at most 100), left in place.
    public func waitingEntries() async throws -> [OutboxEntry] {
        let waiting = Mutex<[OutboxEntry]>([])
        _ = try await drain(batch: 100, now: .distantFuture) { entries in
            waiting.withLock { $0 = entries }
            return OutboxDrainOutcome(done: [])
        }
        return waiting.withLock { $0 }
    }
}

/// An outbox entry's post as the notifications service reads it: a notice's `kind` or an event's `type`, and its
/// recipients (sorted).
public struct PostedEntry: Decodable, Equatable, Sendable, CustomStringConvertible {
    public var recipientIds: [String]
    public var kind: String?
    public var type: String?

    public init(recipientIds: [String], kind: String? = nil, type: String? = nil) {
        (self.recipientIds, self.kind, self.type) = (recipientIds, kind, type)
    }

    public var description: String { "\(kind ?? type ?? "?") to \(recipientIds)" }
}

extension OutboxStorage {
    /// The posts waiting, oldest first, left in place.
    public func waitingPosts() async throws -> [PostedEntry] {
        try await waitingEntries().map { entry in
            var posted = try JSONDecoder().decode(PostedEntry.self, from: entry.message.body)
            posted.recipientIds.sort()
            return posted
        }
    }
}

/// A sink other than the outbox (as a test injects, or the log): it keeps what it is handed, in order, each as
/// ``PostedEntry``, with what `observe` read at that moment (say, whether the change is visible yet).
public final class RecordingNoticeSink: NoticeSink {
    private let handed = Mutex<[(PostedEntry, String)]>([])
    private let observe: @Sendable () async -> String

    public init(observe: @escaping @Sendable () async -> String = { "" }) {
        self.observe = observe
    }

    /// What the sink was handed, in order.
    public var posted: [PostedEntry] { handed.withLock { $0.map(\.0) } }

    /// What `observe` read as each was handed.
    public var observed: [String] { handed.withLock { $0.map(\.1) } }

    public func publish(_ notice: Notice) async {
        let seen = await observe()
        handed.withLock { $0.append((PostedEntry(recipientIds: notice.recipients.sorted(), kind: notice.kind), seen)) }
    }

    public func publish(_ event: RealtimeEvent) async {
        let seen = await observe()
        handed.withLock { $0.append((PostedEntry(recipientIds: event.recipients.sorted(), type: event.type), seen)) }
    }
}
