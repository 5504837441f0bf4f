import Foundation

/// A row of `invitations`.
struct InvitationRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var inviterId: String
    var inviteeId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?
}
