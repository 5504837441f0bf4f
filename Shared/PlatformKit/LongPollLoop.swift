import Logging

/// The loop of a long-polled feed (identity's ended sessions, social's relationship changes): asks for what came
/// after the last sequence seen until its task is cancelled, and while the source cannot be reached retries with a
/// growing pause (up to 5 s), logging on the third failure in a row and every 60th.
public struct LongPollLoop: Sendable {
    private let name: String
    private let consequence: String
    private let logger: Logger

    /// A loop logging as `name` ("session revocation feed"); `consequence` says what a failing feed means.
    public init(name: String, consequence: String, logger: Logger) {
        self.name = name
        self.consequence = consequence
        self.logger = logger
    }

    /// Runs until the task is cancelled; never throws. `poll` is handed the sequence to ask after (`nil`: from the
    /// start) and returns the next one; `failed` hears of each failed poll before the pause.
    public func run(
        poll: (_ after: Int64?) async throws -> Int64?, failed: () -> Void = {}
    ) async {
        var after: Int64?
        var failures = 0
        while !Task.isCancelled {
            do {
                after = try await poll(after)
                if failures > 0 { logger.notice("\(name) reconnected") }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                failed()
                failures += 1
                // Not the first failure: services starting together miss each other for a moment.
                if failures == 3 || failures.isMultiple(of: 60) {
                    logger.warning(
                        "\(name) failing; \(consequence)",
                        metadata: ["attempts": "\(failures)", "error": "\(error)"])
                }
                let pause = min(5_000, 100 << min(failures, 6))
                try? await Task.sleep(for: .milliseconds(pause))
            }
        }
    }
}
