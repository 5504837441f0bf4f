import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// Look-ups of one kind that run concurrently, answered together: while `lanes` statements are out, the keys that
/// arrive wait, and the next statement asks for all of them at once (`WHERE id = ANY($1)`).
///
/// Under load, many requests then share one round trip to the database, one wake-up of its server process and one
/// pass through the connection pool; alone, a look-up goes out at once, as before. A key waits only for statements
/// that were already out when it came, and is asked for in a statement that starts after it came, so an answer is
/// never older than its request: what a write committed before the request is seen, on any replica.
///
/// Each event loop has its own waiting line (the statement goes out through that loop's connection pool, and the
/// waiting requests resume on their own thread).
public final class BatchedLookup<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Answers the keys it is given (each at most once); a key without an answer has no value.
    public typealias Fetch = @Sendable ([Key]) async throws -> [Key: Value]

    private let fetch: Fetch
    private let lanes: [ObjectIdentifier: Lane]
    private let offLoop: Lane
    private let statementsOut: Int
    private let largestBatch: Int

    /// Look-ups answered by `fetch`, at most `statementsOut` statements out at once per event loop, each for at most
    /// `largestBatch` keys.
    public init(statementsOut: Int = 2, largestBatch: Int = 128, fetch: @escaping Fetch) {
        precondition(statementsOut > 0 && largestBatch > 0)
        self.fetch = fetch
        self.statementsOut = statementsOut
        self.largestBatch = largestBatch
        var lanes: [ObjectIdentifier: Lane] = [:]
        for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() { lanes[ObjectIdentifier(loop)] = Lane() }
        self.lanes = lanes
        self.offLoop = Lane()
    }

    /// The value of `key`, read after this call began; nil if there is none.
    public func value(for key: Key) async throws -> Value? {
        let lane = MultiThreadedEventLoopGroup.currentEventLoop.flatMap { lanes[ObjectIdentifier($0)] } ?? offLoop
        let statementsOut = statementsOut
        let turn = try await withCheckedThrowingContinuation { (waiter: Waiter) in
            let leads = lane.state.withLockedValue { state in
                guard state.out < statementsOut else {
                    state.waiting.append((key, waiter))
                    return false
                }
                state.out += 1
                return true
            }
            if leads { waiter.resume(returning: .lead) }
        }
        switch turn {
        case .answered(let value): return value
        case .lead: return try await lead(lane, asking: key)
        }
    }

    /// Sends one statement for `key` and whoever waits on `lane`, answers them, then hands the lane's slot to the
    /// next waiter (who sends the next statement), or gives it back.
    private func lead(_ lane: Lane, asking key: Key) async throws -> Value? {
        let largestBatch = largestBatch
        let riders = lane.state.withLockedValue { state in
            let taken = Array(state.waiting.prefix(largestBatch - 1))
            state.waiting.removeFirst(taken.count)
            return taken
        }
        let outcome: Result<[Key: Value], any Error>
        do {
            var keys = [key]
            var asked: Set<Key> = [key]
            for (riderKey, _) in riders where asked.insert(riderKey).inserted { keys.append(riderKey) }
            outcome = .success(try await fetch(keys))
        } catch {
            outcome = .failure(error)
        }
        // A statement that failed because its leader's request was cancelled (its client went away) is not the
        // riders' failure: they go back to the head of the line, for the next statement.
        var requeued = false
        if case .failure = outcome, Task.isCancelled { requeued = true }
        // The next statement goes out first, then the answers: the two overlap.
        let next: Waiter? = lane.state.withLockedValue { state in
            if requeued { state.waiting.insert(contentsOf: riders, at: 0) }
            guard !state.waiting.isEmpty else {
                state.out -= 1
                return nil
            }
            return state.waiting.removeFirst().waiter
        }
        next?.resume(returning: .lead)
        for (riderKey, waiter) in riders where !requeued {
            waiter.resume(with: outcome.map { .answered($0[riderKey]) })
        }
        return try outcome.get()[key]
    }

    /// How many look-ups wait for a statement to go out (tests watch it).
    var waiting: Int {
        ([offLoop] + lanes.values).reduce(0) { count, lane in count + lane.state.withLockedValue { $0.waiting.count } }
    }

    private enum Turn: Sendable {
        case answered(Value?)
        case lead
    }

    private typealias Waiter = CheckedContinuation<Turn, any Error>

    private struct LaneState {
        var out = 0
        var waiting: [(key: Key, waiter: Waiter)] = []
    }

    private final class Lane: Sendable {
        let state = NIOLockedValueBox(LaneState())
    }
}

/// A prepared statement that answers a list of keys in one go, each row naming its key by its 1-based place in the
/// list (`unnest($1::text[], ...) WITH ORDINALITY AS k(..., n)`): the shape a ``BatchedLookup`` fetch takes.
public protocol PositionalLookup: PostgresPreparedStatement where Row == (place: Int64, answer: Answer) {
    associatedtype Key: Hashable & Sendable
    associatedtype Answer: Sendable
    /// The statement for these keys, in this order.
    init(keys: [Key])
}

extension PositionalLookup {
    /// The answers by key; a row whose place is not in the list is ignored.
    public static func answers(for keys: [Key], from database: PostgresServiceDatabase) async throws -> [Key: Answer] {
        try await database.read { session in
            var found: [Key: Answer] = [:]
            for row in try await session.rows(Self(keys: keys)) {
                guard let place = Int(exactly: row.place - 1), keys.indices.contains(place) else { continue }
                found[keys[place]] = row.answer
            }
            return found
        }
    }
}

extension BatchedLookup {
    /// Look-ups answered by `Statement` on `database`.
    public convenience init<Statement: PositionalLookup>(
        _ statement: Statement.Type, on database: PostgresServiceDatabase
    ) where Statement.Key == Key, Statement.Answer == Value {
        self.init { keys in try await Statement.answers(for: keys, from: database) }
    }
}
