import Foundation
import PlatformKit

/// Who paid a bill and how much each (Splitwise's "paid by multiple people"): the rules of a bill's `payers` list.
///
/// A bill's payments are a map payer -> amount paid that adds up to the bill's amount; most bills have one entry,
/// its payer paying all of it.
enum BillPayers {
    /// How many people may pay one bill together.
    static let allowed = 2...20

    /// One entry of a bill's `payers` list, as clients send and read it.
    struct Payer: Codable, Sendable, Equatable {
        var userId: String
        /// Minor units of the bill's currency.
        var amount: Int
    }

    /// What each of `payers` paid of a bill of `total`; throws naming `payers` when they are not 2 to 20 distinct
    /// `members`, each paying a positive amount, together exactly the total.
    static func paid(_ payers: [Payer], total: Int, members: [String]) throws -> [String: Int] {
        guard allowed.contains(payers.count) else {
            throw HouseholdError.invalidField(
                "payers", "must name \(allowed.lowerBound) to \(allowed.upperBound) people; send payerId for one.")
        }
        // Each amount bounded before the sum: 20 amounts of at most 1,000,000.00 cannot overflow.
        for (index, payer) in payers.enumerated() where !Money.isAmount(payer.amount) {
            throw HouseholdError.invalidField(
                "payers",
                "payers[\(index)].amount must be a positive amount in minor units, at most 1,000,000.00.")
        }
        guard Set(payers.map(\.userId)).count == payers.count else {
            throw HouseholdError.invalidField("payers", "must name each payer once.")
        }
        guard payers.allSatisfy({ members.contains($0.userId) }) else {
            throw HouseholdError.invalidField("payers", "everyone who paid must be a member of the household.")
        }
        guard payers.reduce(0, { $0 + $1.amount }) == total else {
            throw HouseholdError.invalidField("payers", "the amounts paid must add up to the bill's amount exactly.")
        }
        return Dictionary(uniqueKeysWithValues: payers.map { ($0.userId, $0.amount) })
    }

    /// The payments as a list: who paid most first, ties by id.
    static func list(_ paid: [String: Int]) -> [Payer] {
        paid.map { Payer(userId: $0.key, amount: $0.value) }
            .sorted { ($1.amount, $0.userId) < ($0.amount, $1.userId) }
    }

    /// The bill's one `payerId` (what clients that know a single payer read): who paid most, ties by id.
    static func principal(_ paid: [String: Int]) -> String? {
        list(paid).first?.userId
    }
}
