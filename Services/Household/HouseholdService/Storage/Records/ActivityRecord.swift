import Foundation

/// A row of `activity`.
struct ActivityRecord: Codable, Sendable {
    var id: Int64?
    var householdId: String
    var kind: String
    var actorId: String
    var subject: String
    var createdAt: Date
}
