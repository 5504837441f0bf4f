import Foundation

/// How a bill is divided among members.
enum SplitRule: Equatable, Sendable {
    /// Everyone the same, odd cents rotated.
    case equal
    /// Each member's exact amount; they must add up to the total.
    case exact([String: Int])
    /// Each member's share in basis points (1/100 of a percent); they must add up to 100%.
    case percentages([String: Int])
    /// Each member's number of shares.
    case shares([String: Int])
}

/// Dividing money in integer minor units so the parts always add up to the total exactly.
enum Splitter {
    /// Each member's part of `total`. Weighted rules apportion by largest remainder (Spliit's method);
    /// cents left over go to the members with the largest remainders, ties broken by a hash of the bill
    /// id and the member, so the same person does not always pay the odd cent.
    static func split(total: Int, among members: [String], rule: SplitRule, seed: String) throws -> [String: Int] {
        guard total > 0 else {
            throw HouseholdError.invalidField("amount", "must be a positive amount in minor units.")
        }
        guard !members.isEmpty, Set(members).count == members.count else {
            throw HouseholdError.invalidField("split.among", "must name each member once.")
        }
        let weights: [String: Int]
        switch rule {
        case .equal:
            weights = Dictionary(uniqueKeysWithValues: members.map { ($0, 1) })
        case .exact(let amounts):
            // Each part at most the total, so their sum cannot overflow.
            guard Set(amounts.keys) == Set(members), amounts.values.allSatisfy({ (0...total).contains($0) }) else {
                throw HouseholdError.invalidField(
                    "split.amounts", "must give a non-negative amount for each member of the split.")
            }
            guard amounts.values.reduce(0, +) == total else {
                throw HouseholdError.invalidField("split.amounts", "must add up to the bill's amount exactly.")
            }
            return amounts
        case .percentages(let basisPoints):
            guard Set(basisPoints.keys) == Set(members), basisPoints.values.allSatisfy({ (0...10_000).contains($0) }),
                basisPoints.values.reduce(0, +) == 10_000
            else {
                throw HouseholdError.invalidField(
                    "split.percentages", "must give each member a share adding up to 100%.")
            }
            weights = basisPoints
        case .shares(let shares):
            guard Set(shares.keys) == Set(members), shares.values.allSatisfy({ (0...1_000).contains($0) }),
                shares.values.reduce(0, +) > 0
            else {
                throw HouseholdError.invalidField("split.shares", "must give each member a whole number of shares.")
            }
            weights = shares
        }
        return apportion(total, weights: weights, seed: seed)
    }

    /// Largest-remainder apportionment of `total` by integer weights.
    static func apportion(_ total: Int, weights: [String: Int], seed: String) -> [String: Int] {
        let weightSum = weights.values.reduce(0, +)
        var parts: [String: Int] = [:]
        var remainders: [(member: String, remainder: Int, tieBreak: UInt64)] = []
        for (member, weight) in weights {
            let exact = total.multipliedFullWidth(by: weight)
            let (quotient, remainder) = weightSum.dividingFullWidth(exact)
            parts[member] = quotient
            remainders.append((member, remainder, stableHash(seed + "/" + member)))
        }
        var leftover = total - parts.values.reduce(0, +)
        for entry in remainders.sorted(by: { ($0.remainder, $0.tieBreak) > ($1.remainder, $1.tieBreak) })
        where leftover > 0 {
            parts[entry.member, default: 0] += 1
            leftover -= 1
        }
        return parts
    }

    /// FNV-1a: stable across processes and platforms, unlike `Hasher`.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

/// One payment that settles (part of) the balances.
struct Transfer: Equatable, Sendable, Codable {
    var from: String
    var to: String
    var amount: Int
}

/// The fewest payments that settle everyone (Splitwise's "simplify debts").
///
/// The minimum is n minus the largest number of disjoint zero-sum groups the balances split into
/// (Verhoeff 2004); it is found exactly by dynamic programming over subsets for up to `exactLimit`
/// people with a non-zero balance, and approximated greedily beyond. Within each group, the largest
/// debtor pays the largest creditor until the group is settled (at most size - 1 payments).
enum SettleUp {
    static let exactLimit = 15

    static func plan(_ balances: [String: Int]) -> [Transfer] {
        let people = balances.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        guard people.count > 1 else { return [] }
        guard people.count <= exactLimit else { return greedy(people) }
        return zeroSumGroups(people.map(\.value)).flatMap { group in greedy(group.map { people[$0] }) }
    }

    /// Index groups, each summing to zero, as many as possible.
    static func zeroSumGroups(_ values: [Int]) -> [[Int]] {
        let n = values.count
        let full = (1 << n) - 1
        var sums = [Int](repeating: 0, count: 1 << n)
        var best = [Int](repeating: 0, count: 1 << n)
        for mask in 1...full {
            let low = mask.trailingZeroBitCount
            sums[mask] = sums[mask & (mask - 1)] + values[low]
            var most = 0
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                most = max(most, best[mask ^ bit])
                rest ^= bit
            }
            best[mask] = most + (sums[mask] == 0 ? 1 : 0)
        }
        // Walk back along an optimal path; members removed between two zero-sum subsets form a group.
        var groups: [[Int]] = []
        var current: [Int] = []
        var mask = full
        while mask != 0 {
            let target = best[mask] - (sums[mask] == 0 ? 1 : 0)
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                if best[mask ^ bit] == target {
                    current.append(bit.trailingZeroBitCount)
                    mask ^= bit
                    break
                }
                rest ^= bit
            }
            if sums[mask] == 0 {
                groups.append(current)
                current = []
            }
        }
        return groups
    }

    /// Largest debtor pays largest creditor, repeatedly.
    static func greedy(_ people: [(key: String, value: Int)]) -> [Transfer] {
        var debtors = people.filter { $0.value < 0 }.map { ($0.key, -$0.value) }
        var creditors = people.filter { $0.value > 0 }.map { ($0.key, $0.value) }
        var transfers: [Transfer] = []
        while let debtorIndex = debtors.indices.max(by: {
            (debtors[$0].1, debtors[$1].0) < (debtors[$1].1, debtors[$0].0)
        }),
            let creditorIndex = creditors.indices.max(by: {
                (creditors[$0].1, creditors[$1].0) < (creditors[$1].1, creditors[$0].0)
            })
        {
            let amount = min(debtors[debtorIndex].1, creditors[creditorIndex].1)
            transfers.append(Transfer(from: debtors[debtorIndex].0, to: creditors[creditorIndex].0, amount: amount))
            debtors[debtorIndex].1 -= amount
            creditors[creditorIndex].1 -= amount
            if debtors[debtorIndex].1 == 0 { debtors.remove(at: debtorIndex) }
            if creditors[creditorIndex].1 == 0 { creditors.remove(at: creditorIndex) }
        }
        return transfers
    }
}
