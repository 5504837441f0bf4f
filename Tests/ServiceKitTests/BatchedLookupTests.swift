import NIOConcurrencyHelpers
import Testing

@testable import ServiceKit

/// ``BatchedLookup``: a look-up alone goes out at once; look-ups that come while statements are out go together in
/// the next one, each answered with its own value; an error reaches every look-up of its statement and no other.
@Suite struct BatchedLookupTests {
    /// A fetch that records the keys of each statement and holds each statement until the test lets it go.
    final class HeldFetch: Sendable {
        let statements = NIOLockedValueBox<[[String]]>([])
        let releases = NIOLockedValueBox<[CheckedContinuation<Void, Never>]>([])
        let failing = NIOLockedValueBox<Set<String>>([])

        func fetch(_ keys: [String]) async throws -> [String: String] {
            statements.withLockedValue { $0.append(keys) }
            await withCheckedContinuation { release in releases.withLockedValue { $0.append(release) } }
            // As a pool lease does: a cancelled task gets no connection.
            try Task.checkCancellation()
            if keys.contains(where: { failing.withLockedValue { $0 }.contains($0) }) { throw Refused() }
            // "missing" has no value.
            return Dictionary(uniqueKeysWithValues: keys.filter { $0 != "missing" }.map { ($0, "value of \($0)") })
        }

        /// Lets the oldest held statement answer, once one is held.
        func releaseNext() async {
            while true {
                let release = releases.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
                if let release { return release.resume() }
                await Task.yield()
            }
        }
    }

    struct Refused: Error {}

    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func lookUpsThatComeWhileAStatementIsOutGoTogetherInTheNext() async throws {
        let held = HeldFetch()
        let lookup = BatchedLookup<String, String>(statementsOut: 1) { try await held.fetch($0) }
        try await withThrowingTaskGroup(of: (String, String?).self) { group in
            group.addTask { ("a", try await lookup.value(for: "a")) }
            await Self.until { held.statements.withLockedValue { $0.count } == 1 }
            for key in ["b", "c", "b", "missing"] {
                group.addTask { (key, try await lookup.value(for: key)) }
            }
            await Self.until { lookup.waiting == 4 }
            await held.releaseNext()
            await held.releaseNext()
            var answers: [(String, String?)] = []
            for try await answer in group { answers.append(answer) }
            #expect(answers.count == 5)
            for (key, value) in answers {
                #expect(value == (key == "missing" ? nil : "value of \(key)"))
            }
        }
        let statements = held.statements.withLockedValue { $0 }
        #expect(statements.count == 2)
        #expect(statements.first == ["a"])
        // The four that waited, in one statement, each key once.
        #expect(Set(statements.last ?? []) == ["b", "c", "missing"])
        #expect(statements.last?.count == 3)
        #expect(lookup.waiting == 0)
    }

    @Test func anErrorReachesTheLookUpsOfItsStatementAndTheNextStatementStillGoesOut() async throws {
        let held = HeldFetch()
        held.failing.withLockedValue { $0 = ["bad"] }
        let lookup = BatchedLookup<String, String>(statementsOut: 1) { try await held.fetch($0) }
        let first = Task { try await lookup.value(for: "a") }
        await Self.until { held.statements.withLockedValue { $0.count } == 1 }
        let failing = [Task { try await lookup.value(for: "bad") }, Task { try await lookup.value(for: "b") }]
        await Self.until { lookup.waiting == 2 }
        await held.releaseNext()
        #expect(try await first.value == "value of a")
        await held.releaseNext()
        for task in failing {
            await #expect(throws: Refused.self) { try await task.value }
        }
        // The lane is free again: a new look-up goes out at once, alone.
        let later = Task { try await lookup.value(for: "c") }
        await held.releaseNext()
        #expect(try await later.value == "value of c")
        #expect(held.statements.withLockedValue { $0.last } == ["c"])
    }

    @Test func whenTheLeadingRequestIsCancelledItsRidersGoInTheNextStatement() async throws {
        let held = HeldFetch()
        let lookup = BatchedLookup<String, String>(statementsOut: 1) { try await held.fetch($0) }
        let first = Task { try await lookup.value(for: "x") }
        await Self.until { held.statements.withLockedValue { $0.count } == 1 }
        // "a" will lead the next statement, with "b" on it.
        let leader = Task { try await lookup.value(for: "a") }
        await Self.until { lookup.waiting == 1 }
        let rider = Task { try await lookup.value(for: "b") }
        await Self.until { lookup.waiting == 2 }
        await held.releaseNext()
        #expect(try await first.value == "value of x")
        await Self.until { held.statements.withLockedValue { $0.count } == 2 }
        // The leader's client goes away while its statement is out.
        leader.cancel()
        await held.releaseNext()
        await #expect(throws: CancellationError.self) { try await leader.value }
        await held.releaseNext()
        #expect(try await rider.value == "value of b")
        #expect(held.statements.withLockedValue { $0 } == [["x"], ["a", "b"], ["b"]])
    }

    @Test func manyConcurrentLookUpsAreEachAnsweredOnce() async throws {
        let statements = NIOLockedValueBox(0)
        let lookup = BatchedLookup<Int, Int>(statementsOut: 2, largestBatch: 8) { keys in
            statements.withLockedValue { $0 += 1 }
            await Task.yield()
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, $0 * 2) })
        }
        let answers = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for key in 0..<500 { group.addTask { (key, try await lookup.value(for: key % 97)) } }
            var answers: [(Int, Int?)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.count == 500)
        #expect(answers.allSatisfy { key, value in value == (key % 97) * 2 })
        #expect(statements.withLockedValue { $0 } <= 500)
        #expect(lookup.waiting == 0)
    }
}
