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
