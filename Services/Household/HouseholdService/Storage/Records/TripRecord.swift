import Foundation

/// A row of `shopping_trips` without its receipt bytes.
struct TripRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var shopperId: String
    var total: Int
    var currency: String
    var billId: String
    var idempotencyKey: String?
    var receiptType: String?
    var receiptEtag: String?
    var createdAt: Date
    var updatedAt: Date
}
