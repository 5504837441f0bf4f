import Foundation
import Logging
import ServiceLifecycle

/// Sends pushes off the request path: the internal post that stored a notice returns at once, and a slow or
/// failing APNs never holds up a producer. Runs as one of the application's services.
///
/// With several replicas each push is still sent once: only the replica whose transaction created a notice queues
/// its pushes, and a retried post, wherever it lands, creates nothing (the notice is unique per recipient, producer
/// and key). The queue is memory, as on one replica: a push queued when a process dies is not sent.
final class PushDispatcher: Service {
    private let delivery: any PushDelivery
    private let store: any NotificationsStore
    private let logger: Logger
    private let jobs: AsyncStream<PushMessage>
    private let queue: AsyncStream<PushMessage>.Continuation
    /// Pushes in flight at once; APNs multiplexes them over one HTTP/2 connection.
    static let concurrency = 16

    init(delivery: any PushDelivery, store: any NotificationsStore, logger: Logger) {
        self.delivery = delivery
        self.store = store
        self.logger = logger
        (jobs, queue) = AsyncStream.makeStream(of: PushMessage.self, bufferingPolicy: .bufferingOldest(100_000))
    }

    /// Queues a push to each of the target's devices.
    func enqueue(_ target: PushTarget) {
        for device in target.devices {
            let message = PushMessage(
                deviceToken: device.token, environment: device.environment,
                notificationID: target.notification.id, kind: target.notification.kind,
                text: target.notification.text, link: target.notification.link)
            if case .dropped = queue.yield(message) {
                logger.warning("push queue full; push dropped", metadata: ["kind": "\(message.kind)"])
            }
        }
    }

    func run() async {
        // On shutdown the queue closes; what is already queued is still sent.
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await message in jobs {
                    if running == Self.concurrency {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await self.send(message) }
                    running += 1
                }
            }
        } onGracefulShutdown: {
            self.queue.finish()
        }
    }

    private func send(_ message: PushMessage) async {
        switch await delivery.send(message) {
        case .delivered:
            break
        case .unregistered:
            _ = try? await store.removeDevice(message.deviceToken, of: nil)
        case .failed(let reason):
            logger.warning("push failed", metadata: ["kind": "\(message.kind)", "reason": "\(reason)"])
        }
    }
}
