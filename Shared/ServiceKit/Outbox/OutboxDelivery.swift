import Foundation
import Logging
import PlatformKit
import ServiceLifecycle
import Synchronization

/// Posts a service's outbox to the notifications service in order, the head of it in one post
/// (``NotificationsPaths/internalDeliveries``), runs beside the server: at once when an entry is appended, else every
/// `pollInterval`. A failed post keeps its entry (and those behind it) for a back-off of
/// ``OutboxBackoff``, read on the service's clock; an entry the notifications service refuses as malformed (a 4xx
/// other than 401, 403, 404, 408 and 429, which a restart or a configuration fix cures) is logged and dropped.
public final class OutboxDelivery: Service, Sendable {
    private let outbox: any OutboxStorage
    private let client: InternalClient
    private let clock: WallClock
    private let logger: Logger
    private let pollInterval: Duration
    private let batch: Int
    private let bell = ChangeBell()

    /// Delivery of `outbox` to the notifications service at `address`.
    public init(
        outbox: any OutboxStorage, address: ServiceAddress, settings: ServiceSettings, logger: Logger,
        pollInterval: Duration = .seconds(1), batch: Int = 100
    ) {
        self.outbox = outbox
        // Shorter than a request's: a drain holds its transaction while it posts, and the entry is kept anyway.
        self.client = InternalClient(
            service: .notifications, address: address, token: settings.internalToken, timeout: .seconds(5))
        self.clock = settings.clock
        self.logger = logger
        self.pollInterval = pollInterval
        self.batch = batch
    }

    /// Delivery should look now (an entry was appended).
    public func wake() { bell.ring() }

    /// Posts the entries due now, in order, until one fails; answers how many were done and whether one failed.
    @discardableResult
    public func deliverDue() async throws -> (done: Int, failed: Bool) {
        let result = Mutex((done: 0, failed: false))
        _ = try await outbox.drain(batch: batch, now: clock.now) { entries in
            let outcome = await self.post(entries)
            result.withLock { $0 = (outcome.done.count, outcome.failed != nil) }
            return outcome
        }
        return result.withLock { $0 }
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let generation = self.bell.generation
                var more = false
                do {
                    let result = try await self.deliverDue()
                    more = result.done > 0 && !result.failed
                } catch is CancellationError {
                    return
                } catch {
                    self.logger.error("outbox delivery failed", metadata: ["error": "\(error)"])
                }
                if !more { await self.bell.wait(after: generation, timeout: self.pollInterval) }
            }
        }
    }

    /// Posts the head of the outbox in one request (``NotificationsPaths/internalDeliveries``), as many entries as fit
    /// in ``batchBytes``; to a notifications service without that route (an older version, mid-deploy), or when the
    /// batch is refused whole, one by one.
    private func post(_ entries: [OutboxEntry]) async -> OutboxDrainOutcome {
        var size = 0
        let head = entries.prefix { entry in
            size += entry.message.body.count + 32
            return size <= Self.batchBytes
        }
        let batch = head.isEmpty ? Array(entries.prefix(1)) : Array(head)
        let reply: DeliveryBatchReply
        do {
            reply = try await client.post(
                NotificationsPaths.internalDeliveries, json: Self.envelope(batch), as: DeliveryBatchReply.self)
        } catch InternalCallError.failed(_, let status, _) where status == 404 || Self.refusedForGood(status) {
            // No batch route, or a batch refused whole (an entry that spoils it): one by one, each on its own.
            return await postEach(batch)
        } catch {
            return failed(batch[0], error)
        }
        var done: [Int64] = []
        for (entry, result) in zip(batch, reply.results) {
            if (200..<300).contains(result.status) {
                done.append(entry.seq)
            } else if Self.refusedForGood(result.status) {
                dropped(entry, status: result.status, code: result.code)
                done.append(entry.seq)
            } else {
                return OutboxDrainOutcome(
                    done: done, failed: entry.seq,
                    retryAt: retryAt(
                        entry, InternalCallError.failed(.notifications, status: result.status, problem: nil)))
            }
        }
        // Notifications stops at an entry it could not store; that one waits, and those behind it.
        if reply.results.count < batch.count {
            let entry = batch[reply.results.count]
            return failed(entry, InternalCallError.failed(.notifications, status: 500, problem: nil), done: done)
        }
        return OutboxDrainOutcome(done: done)
    }

    /// The most a batch's bodies take: well under a service's 1 MiB request limit.
    static let batchBytes = 512 << 10

    /// `{"entries": [{"kind": ..., "body": ...}, ...]}`, the bodies as stored.
    static func envelope(_ entries: [OutboxEntry]) -> Data {
        var json = Data(#"{"entries":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: #"{"kind":""#.utf8)
            json.append(contentsOf: entry.message.kind.rawValue.utf8)
            json.append(contentsOf: #"","body":"#.utf8)
            json.append(entry.message.body)
            json.append(UInt8(ascii: "}"))
        }
        json.append(contentsOf: "]}".utf8)
        return json
    }

    struct DeliveryBatchReply: Decodable {
        struct Result: Decodable {
            var status: Int
            var code: String?
        }
        var results: [Result]
    }

    private func postEach(_ entries: [OutboxEntry]) async -> OutboxDrainOutcome {
        var done: [Int64] = []
        for entry in entries {
            let path =
                entry.message.kind == .notice
                ? NotificationsPaths.internalNotifications : NotificationsPaths.internalEvents
            do {
                try await client.post(path, json: entry.message.body)
                done.append(entry.seq)
            } catch InternalCallError.failed(_, let status, let problem) where Self.refusedForGood(status) {
                dropped(entry, status: status, code: problem?.code)
                done.append(entry.seq)
            } catch {
                return failed(entry, error, done: done)
            }
        }
        return OutboxDrainOutcome(done: done)
    }

    private func dropped(_ entry: OutboxEntry, status: Int, code: String?) {
        logger.error(
            "notifications refused an outbox entry; dropped",
            metadata: ["key": "\(entry.message.idempotencyKey)", "status": "\(status)", "code": "\(code ?? "")"])
    }

    /// `entry` failed with `error`: it waits for its back-off, and those behind it with it.
    private func failed(_ entry: OutboxEntry, _ error: any Error, done: [Int64] = []) -> OutboxDrainOutcome {
        OutboxDrainOutcome(done: done, failed: entry.seq, retryAt: retryAt(entry, error))
    }

    private func retryAt(_ entry: OutboxEntry, _ error: any Error) -> Date {
        let attempts = entry.attempts + 1
        // Once when an entry starts failing, then now and then, not at every back-off.
        if attempts == 1 || attempts % 20 == 0 {
            logger.warning(
                "outbox delivery waiting for the notifications service",
                metadata: ["attempts": "\(attempts)", "error": "\(error)"])
        }
        return clock.now.addingTimeInterval(OutboxBackoff.delay(afterAttempts: attempts))
    }

    /// A refusal that no retry changes: the entry itself is wrong.
    static func refusedForGood(_ status: Int) -> Bool {
        (400..<500).contains(status) && ![401, 403, 404, 408, 429].contains(status)
    }
}
