import Foundation

/// A row of `payments`: one member settling with another.
struct PaymentRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var fromId: String
    var toId: String
    var amount: Int
    var currency: String
    var createdAt: Date
}
