import Foundation
import PlatformKit

/// What a shopping trip request may hold, checked before the store sees it.
enum TripLimits {
    /// The most items one trip buys or one edit lists.
    static let maximumItems = 200

    /// The household-list lines a completed trip names, by merge key with the price paid: from 1 to
    /// ``maximumItems``, each line once (case and plural do not matter).
    static func picks(_ items: [(name: String, price: Int?)]) throws -> [(key: String, price: Int?)] {
        let picks = items.map { (key: Groceries.mergeKey($0.name), price: $0.price) }
        guard !picks.isEmpty, picks.count <= maximumItems else {
            throw HouseholdError.invalidField(
                "items", "must pick from 1 to \(maximumItems) items of the household list.")
        }
        guard Set(picks.map(\.key)).count == picks.count else {
            throw HouseholdError.invalidField("items", "must name each item once.")
        }
        return picks
    }

    /// An edit lists the trip's items after it: from 1 to ``maximumItems``.
    static func checkEditedItems(count: Int) throws {
        guard (1...maximumItems).contains(count) else {
            throw HouseholdError.invalidField("items", "must list from 1 to \(maximumItems) items.")
        }
    }

    /// A price entered while shopping: from nothing to the largest amount.
    static func checkPrice(_ price: Int?) throws {
        if let price, !(0...Money.maximumAmount).contains(price) {
            throw HouseholdError.invalidField("price", "must be from 0 to \(Money.maximumAmount).")
        }
    }
}
