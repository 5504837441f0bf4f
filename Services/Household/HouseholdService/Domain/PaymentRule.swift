import Foundation

/// What one member may pay another in one currency. As in Splitwise, the household records what its members report
/// and refuses only a payment that would leave someone owed by the payer: a member who owes money (a negative net
/// balance) may pay any member who is owed money (a positive one), up to the smaller of the two amounts. The
/// settle-up plan's pairs are a suggestion, not a rule: balances still sum to zero whoever pays whom.
enum PaymentRule {
    /// The most the payer may pay the payee, and why it is nothing when it is.
    enum Limit: Equatable, Sendable {
        case payerOwesNothing
        case payeeIsOwedNothing
        case atMost(Int)

        /// The largest amount accepted, in minor units.
        var payable: Int {
            if case .atMost(let amount) = self { amount } else { 0 }
        }
    }

    /// The limit for a payment between members whose net balances in its currency are `payerNet` and `payeeNet`.
    static func limit(payerNet: Int, payeeNet: Int) -> Limit {
        guard payerNet < 0 else { return .payerOwesNothing }
        guard payeeNet > 0 else { return .payeeIsOwedNothing }
        // Both are bounded by the sum of stored amounts (each at most 10^8 minor units), far from overflow.
        return .atMost(min(-payerNet, payeeNet))
    }
}
