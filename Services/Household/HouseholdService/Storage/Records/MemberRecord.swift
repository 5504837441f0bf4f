import Foundation

/// A row of `members`.
struct MemberRecord: Codable, Sendable {
    var householdId: String
    var userId: String
    var joinedAt: Date
}
