import Foundation
import GRDB

/// A row of `invitations`.
struct InvitationRecord: HouseholdTable {
    static let databaseTableName = "invitations"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let inviterId = Column("inviter_id")
        static let inviteeId = Column("invitee_id")
        static let status = Column("status")
        static let createdAt = Column("created_at")
        static let respondedAt = Column("responded_at")
    }

    var id: String
    var householdId: String
    var inviterId: String
    var inviteeId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?
}
