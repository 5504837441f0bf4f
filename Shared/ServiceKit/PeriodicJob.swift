import Logging
import ServiceLifecycle

/// Background work run every `interval` until graceful shutdown (expiry sweeps, reminders, pruning). A failed
/// run is logged and the next one comes at its time; the work reads the time from the service's injected clock.
public struct PeriodicJob: Service {
    private let name: String
    private let interval: Duration
    private let logger: Logger
    private let work: @Sendable () async throws -> Void

    /// A job named `name` (for the log) running `work` now and then every `interval`.
    public init(
        _ name: String, every interval: Duration, logger: Logger, work: @escaping @Sendable () async throws -> Void
    ) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.work = work
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await work()
                } catch is CancellationError {
                    // Shutting down (or the server failed to start): not the job's failure.
                    return
                } catch {
                    logger.error("\(name) failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
