import Foundation
import PlatformKit

/// A payment as a member reports it (a settlement to another member), before it is recorded: the one place its own
/// rules are checked. Whether the payee belongs to the household is the store's check, in the transaction.
struct PaymentDraft: Sendable, Equatable {
    var from: String
    var to: String
    /// Minor units of `currency`.
    var amount: Int
    var currency: String

    /// The payment `from` reports; throws the first rule it breaks, naming the field.
    init(from: String, to: String, amount: Int, currency: String) throws {
        guard Money.isAmount(amount) else {
            throw HouseholdError.invalidField("amount", "must be a positive amount in minor units.")
        }
        guard to != from else { throw HouseholdError.invalidField("to", "must be another member.") }
        (self.from, self.to, self.amount, self.currency) = (from, to, amount, try Money.currency(currency))
    }
}
