import Foundation
import PlatformKit

/// One thing bought on a shopping trip, and who it was for.
struct TripLine: Codable, Sendable, Equatable {
    var name: String
    /// What the line cost, in minor units, when the shopper entered it.
    var price: Int?
    /// Units for the whole household (the communal list).
    var communalQuantity: Int
    /// Member -> units they wanted for themselves.
    var wantedBy: [String: Int]
    var quantity: Int { communalQuantity + wantedBy.values.reduce(0, +) }

    /// The most units of one line, communal or for one member: far above what merged grocery items reach (each
    /// holds at most 999), and small enough that adding them up cannot overflow.
    static let maximumUnits = 1_000_000
}

/// Who owes what for a shopping trip.
enum TripCharge {
    /// Each member's part of `total`, adding up to it exactly.
    ///
    /// First each line gets its cost: by the prices when every line has one (scaled to the total paid, which
    /// may include tax or a discount), equally per line when none has, and with some priced the unpriced
    /// lines share what the priced ones leave. Then a line's cost is divided by units: communal units among
    /// all `members`, personal units to whoever wanted them. Both steps apportion by largest remainder.
    static func shares(total: Int, lines: [TripLine], members: [String], seed: String) throws -> [String: Int] {
        guard Money.isAmount(total) else {
            throw HouseholdError.invalidField(
                "total", "must be a positive amount in minor units, at most 1,000,000.00.")
        }
        guard !lines.isEmpty else { throw HouseholdError.invalidField("items", "must name at least one item.") }
        // Units are bounded before `quantity` adds them up: an edit sends them as it likes (Int.max overflowed).
        let units = 0...TripLine.maximumUnits
        guard
            lines.allSatisfy({
                units.contains($0.communalQuantity) && $0.wantedBy.values.allSatisfy(units.contains) && $0.quantity > 0
            })
        else {
            throw HouseholdError.invalidField(
                "items", "every item needs a positive quantity, at most \(TripLine.maximumUnits) units each.")
        }
        guard lines.allSatisfy({ Money.isPrice($0.price ?? 0) }) else {
            throw HouseholdError.invalidField("items", "prices must be non-negative amounts in minor units.")
        }
        let priced = lines.indices.filter { lines[$0].price != nil }
        let pricedSum = priced.reduce(0) { $0 + (lines[$1].price ?? 0) }
        var costs = [Int](repeating: 0, count: lines.count)
        func equally(_ amount: Int, _ indices: [Int]) {
            let parts = Splitter.apportion(
                amount, weights: Dictionary(uniqueKeysWithValues: indices.map { (String($0), 1) }), seed: seed)
            for (key, part) in parts { costs[Int(key) ?? 0] = part }
        }
        if priced.count == lines.count, pricedSum > 0 {
            let parts = Splitter.apportion(
                total,
                weights: Dictionary(uniqueKeysWithValues: lines.indices.map { (String($0), lines[$0].price ?? 0) }),
                seed: seed)
            for (key, part) in parts { costs[Int(key) ?? 0] = part }
        } else if priced.isEmpty || priced.count == lines.count {
            equally(total, Array(lines.indices))
        } else {
            guard pricedSum <= total else {
                throw HouseholdError.invalidField("items", "the item prices add up to more than the total paid.")
            }
            for index in priced { costs[index] = lines[index].price ?? 0 }
            equally(total - pricedSum, lines.indices.filter { lines[$0].price == nil })
        }
        var shares: [String: Int] = [:]
        for (index, line) in lines.enumerated() where costs[index] > 0 {
            // Scaled by the member count so a communal unit's equal parts stay whole numbers.
            var weights: [String: Int] = [:]
            for member in members where line.communalQuantity > 0 {
                weights[member, default: 0] += line.communalQuantity
            }
            for (member, units) in line.wantedBy where units > 0 {
                weights[member, default: 0] += units * members.count
            }
            for (member, part) in Splitter.apportion(costs[index], weights: weights, seed: seed + "/\(index)") {
                shares[member, default: 0] += part
            }
        }
        return shares.filter { $0.value > 0 }
    }
}
