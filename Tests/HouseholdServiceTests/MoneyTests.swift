import PlatformKit
import TestSupport
import Testing

@testable import HouseholdService

@Suite struct SplitterTests {
    @Test(arguments: [(10_000, 3), (1, 2), (1, 3), (2, 3), (99_999, 7), (5, 5)])
    func equalSplitsAlwaysAddUpAndDifferByAtMostOneCent(total: Int, people: Int) throws {
        let members = (0..<people).map { "m\($0)" }
        let parts = try Splitter.split(total: total, among: members, rule: .equal, seed: "bill-1")
        #expect(parts.values.reduce(0, +) == total)
        #expect((parts.values.max() ?? 0) - (parts.values.min() ?? 0) <= 1)
    }

    @Test func theOddCentIsNotAlwaysPaidByTheSamePerson() throws {
        let members = ["ann", "bob"]
        var payers: Set<String> = []
        for bill in 0..<20 {
            let parts = try Splitter.split(total: 1, among: members, rule: .equal, seed: "bill-\(bill)")
            payers.formUnion(parts.filter { $0.value == 1 }.keys)
        }
        #expect(payers == ["ann", "bob"])
    }

    @Test func weightedSplitsAddUp() throws {
        let shares = try Splitter.split(
            total: 1_000, among: ["a", "b", "c"], rule: .shares(["a": 1, "b": 1, "c": 1]), seed: "s")
        #expect(shares.values.reduce(0, +) == 1_000)
        let percent = try Splitter.split(
            total: 999, among: ["a", "b"], rule: .percentages(["a": 3_333, "b": 6_667]), seed: "p")
        #expect(percent.values.reduce(0, +) == 999)
        #expect(percent["a"] == 333)
        let exact = try Splitter.split(total: 700, among: ["a", "b"], rule: .exact(["a": 200, "b": 500]), seed: "e")
        #expect(exact == ["a": 200, "b": 500])
    }

    @Test func splitsThatDoNotAddUpAreRefused() {
        #expect(throws: (any Error).self) {
            try Splitter.split(total: 700, among: ["a", "b"], rule: .exact(["a": 200, "b": 400]), seed: "")
        }
        #expect(throws: (any Error).self) {
            try Splitter.split(total: 700, among: ["a", "b"], rule: .percentages(["a": 5_000, "b": 4_000]), seed: "")
        }
        #expect(throws: (any Error).self) {
            try Splitter.split(total: 700, among: ["a"], rule: .shares(["a": 0]), seed: "")
        }
        #expect(throws: (any Error).self) { try Splitter.split(total: 0, among: ["a"], rule: .equal, seed: "") }
        #expect(throws: (any Error).self) { try Splitter.split(total: 10, among: ["a", "a"], rule: .equal, seed: "") }
    }
}

@Suite struct SettleUpTests {
    /// The most disjoint zero-sum groups the values split into, by trying every partition.
    static func bruteForceGroups(_ values: [Int]) -> Int {
        guard let first = values.indices.first else { return 0 }
        var best = 0
        let rest = Array(values.indices.dropFirst())
        // The group containing the first element: every subset of the rest joined to it.
        for mask in 0..<(1 << rest.count) {
            let members = [first] + rest.indices.filter { mask & (1 << $0) != 0 }.map { rest[$0] }
            guard members.map({ values[$0] }).reduce(0, +) == 0 else { continue }
            let remaining = values.indices.filter { !members.contains($0) }.map { values[$0] }
            best = max(best, 1 + bruteForceGroups(remaining))
        }
        return best
    }

    static func settles(_ balances: [String: Int], with plan: [Transfer]) -> Bool {
        var net = balances
        for transfer in plan {
            net[transfer.from, default: 0] += transfer.amount
            net[transfer.to, default: 0] -= transfer.amount
        }
        return net.values.allSatisfy { $0 == 0 } && plan.allSatisfy { $0.amount > 0 }
    }

    @Test func theDocumentedCaseNeedsFourPaymentsNotFive() {
        // Debts 10, 3, 3 against credits 6, 5, 5: greedy makes 5 payments, the minimum is 4.
        let balances = ["d1": -10, "d2": -3, "d3": -3, "c1": 6, "c2": 5, "c3": 5]
        let plan = SettleUp.plan(balances)
        #expect(plan.count == 4)
        #expect(Self.settles(balances, with: plan))
        #expect(SettleUp.greedy(balances.sorted { $0.key < $1.key }).count == 5)
    }

    @Test(arguments: 0..<200)
    func plansAreMinimalOnRandomSmallGroups(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let people = Int(generator.next() % 6) + 2
        var values = (0..<(people - 1)).map { _ in Int(generator.next() % 9) - 4 }
        values.append(-values.reduce(0, +))
        let balances = Dictionary(uniqueKeysWithValues: values.enumerated().map { ("p\($0.offset)", $0.element) })
        let plan = SettleUp.plan(balances)
        let nonZero = values.filter { $0 != 0 }
        #expect(Self.settles(balances, with: plan))
        #expect(plan.count == nonZero.count - Self.bruteForceGroups(nonZero), "balances \(values)")
    }
}
