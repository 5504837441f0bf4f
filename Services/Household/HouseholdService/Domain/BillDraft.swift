import Foundation
import PlatformKit

/// A bill as a member asks for it, before it is divided: the one place a bill's rules are checked.
///
/// The description and currency arrive checked (they are plain fields); everything else - the amount, the
/// split and who may be named in it - is checked by ``divide(among:seed:)`` against the household's members,
/// inside the transaction that stores the bill.
struct BillDraft: Sendable, Equatable {
    var description: String
    /// Minor units of `currency`.
    var amount: Int
    var currency: String
    /// Who paid; the member adding the bill when nil.
    var payerID: String?
    var split: Split
    /// One of ``BillCategory/all``.
    var category = BillCategory.other
    /// Who paid when several did (then `payerID` is nil); checked by ``paid(byDefault:members:)``.
    var payers: [BillPayers.Payer]? = nil

    /// How the client asked to divide the bill, as sent (the request's `split` object).
    struct Split: Codable, Sendable, Equatable {
        /// `equal`, `exact`, `percentages` or `shares`.
        var kind: String
        /// Who shares an `equal` bill; every member when nil. The other kinds name members in their map.
        var among: [String]?
        var amounts: [String: Int]?
        /// Percent per member, up to two decimals (33.33).
        var percentages: [String: Double]?
        var shares: [String: Int]?
    }

    /// Each member's part of the bill, which add up to its amount; `seed` (the bill's id) picks who pays odd
    /// cents. Throws the first rule the draft breaks, naming the field.
    func divide(among members: [String], seed: String) throws -> [String: Int] {
        guard Money.isAmount(amount) else {
            throw HouseholdError.invalidField(
                "amount", "must be a positive amount in minor units, at most 1,000,000.00.")
        }
        let (rule, participants) = try rule(members: members)
        let shares = try Splitter.split(total: amount, among: participants, rule: rule, seed: seed)
        guard (Array(shares.keys) + [payerID].compactMap(\.self)).allSatisfy(members.contains) else {
            throw HouseholdError.notAMember
        }
        return shares
    }

    /// What each payer paid (adding up to the amount): `payers` when sent, else all of it by `payerID`, or by
    /// `payer` when the draft names nobody. Checked after ``divide(among:seed:)`` (which bounds the amount).
    func paid(byDefault payer: String, members: [String]) throws -> [String: Int] {
        guard let payers else { return [payerID ?? payer: amount] }
        guard payerID == nil else {
            throw HouseholdError.invalidField("payers", "send either payerId or payers, not both.")
        }
        return try BillPayers.paid(payers, total: amount, members: members)
    }

    private func rule(members: [String]) throws -> (SplitRule, [String]) {
        switch split.kind {
        case "equal":
            return (.equal, split.among ?? members)
        case "exact":
            return (.exact(split.amounts ?? [:]), (split.amounts ?? [:]).keys.sorted())
        case "shares":
            return (.shares(split.shares ?? [:]), (split.shares ?? [:]).keys.sorted())
        case "percentages":
            let percentages = split.percentages ?? [:]
            // Bounded before the conversion to basis points: Int(1e300) traps.
            guard
                percentages.values.allSatisfy({
                    (0...100).contains($0) && abs(($0 * 100).rounded() - $0 * 100) < 1e-6
                })
            else {
                throw HouseholdError.invalidField(
                    "split.percentages", "must be percents from 0 to 100 with at most two decimals.")
            }
            return (.percentages(percentages.mapValues { Int(($0 * 100).rounded()) }), percentages.keys.sorted())
        default:
            throw HouseholdError.invalidField("split.kind", "must be equal, exact, percentages or shares.")
        }
    }
}

extension HouseholdError {
    /// Everyone a bill, payment or trip names must belong to the household.
    static let notAMember = HouseholdError.invalidField(
        "members", "everyone named must be a member of the household.")
}
