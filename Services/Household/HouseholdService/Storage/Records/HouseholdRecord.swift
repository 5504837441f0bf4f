import Foundation

/// A row of `households`.
struct HouseholdRecord: Codable, Sendable {
    var id: String
    var name: String
    var timeZone: String
    var createdBy: String
    var noteLifetimeDays: Int
    var createdAt: Date
}
