import Foundation

/// A row of `events`.
struct EventRecord: Codable, Sendable {
    var id: Int64?
    var habitId: String
    var userId: String
    var day: String
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photoType: String?
    var idempotencyKey: String?
    var createdAt: Date
    var updatedAt: Date
    /// A measurable habit's value for the day, in thousandths.
    var valueMilli: Int64? = nil
}
