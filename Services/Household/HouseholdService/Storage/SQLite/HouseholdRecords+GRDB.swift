import Foundation
import GRDB
import ServiceKit

// The records' GRDB side: table names, columns and fast row decoding, for the SQLite store alone; the records
// themselves are plain values that cross `HouseholdStore`.

extension ActivityRecord: HouseholdTable {
    static let databaseTableName = "activity"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let kind = Column("kind")
        static let actorId = Column("actor_id")
        static let subject = Column("subject")
        static let createdAt = Column("created_at")
    }
}

extension BillRecord: HouseholdTable {
    static let databaseTableName = "bills"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let description = Column("description")
        static let amount = Column("amount")
        static let currency = Column("currency")
        static let payerId = Column("payer_id")
        static let splitKind = Column("split_kind")
        static let createdBy = Column("created_by")
        static let idempotencyKey = Column("idempotency_key")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
        static let tripId = Column("trip_id")
        static let category = Column("category")
    }
}

extension ChoreRecord: HouseholdTable {
    static let databaseTableName = "chores"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let name = Column("name")
        static let points = Column("points")
        static let scheduleKind = Column("schedule_kind")
        static let scheduleEvery = Column("schedule_every")
        static let scheduleWeekdays = Column("schedule_weekdays")
        static let scheduleDay = Column("schedule_day")
        static let assignmentKind = Column("assignment_kind")
        static let assignmentFixed = Column("assignment_fixed")
        static let assignmentOrder = Column("assignment_order")
        static let assigneeId = Column("assignee_id")
        static let nextDue = Column("next_due")
        static let createdAt = Column("created_at")
    }
}

extension ChoreRecord {
    /// Reads the columns by name: the chore list decodes every chore of the household, and the `Codable` path
    /// through ``SnakeCaseColumns`` was the largest part of that read.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        householdId = try row.decode(forColumn: Columns.householdId)
        name = try row.decode(forColumn: Columns.name)
        points = try row.decode(forColumn: Columns.points)
        scheduleKind = try row.decode(forColumn: Columns.scheduleKind)
        scheduleEvery = try row.decode(forColumn: Columns.scheduleEvery)
        scheduleWeekdays = try row.decode(forColumn: Columns.scheduleWeekdays)
        scheduleDay = try row.decode(forColumn: Columns.scheduleDay)
        assignmentKind = try row.decode(forColumn: Columns.assignmentKind)
        assignmentFixed = try row.decode(forColumn: Columns.assignmentFixed)
        assignmentOrder = try row.decode(forColumn: Columns.assignmentOrder)
        assigneeId = try row.decode(forColumn: Columns.assigneeId)
        nextDue = try row.decode(forColumn: Columns.nextDue)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
    }
}

extension CompletionRecord: HouseholdTable {
    static let databaseTableName = "completions"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let choreId = Column("chore_id")
        static let choreName = Column("chore_name")
        static let userId = Column("user_id")
        static let points = Column("points")
        static let dueOn = Column("due_on")
        static let completedOn = Column("completed_on")
        static let completedAt = Column("completed_at")
        static let note = Column("note")
    }
}

extension EventRecord: HouseholdTable {
    static let databaseTableName = "household_events"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let startsAt = Column("starts_at")
        static let finishesAt = Column("finishes_at")
        static let remindAt = Column("remind_at")
        static let remindedAt = Column("reminded_at")
        static let cancelledAt = Column("cancelled_at")
    }
}

extension GroceryItemRecord: HouseholdTable {
    static let databaseTableName = "grocery_items"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let ownerId = Column("owner_id")
        static let name = Column("name")
        static let mergeKey = Column("merge_key")
        static let quantity = Column("quantity")
        static let note = Column("note")
        static let visible = Column("visible")
        static let createdBy = Column("created_by")
        static let createdAt = Column("created_at")
    }
}

extension HouseholdRecord: HouseholdTable {
    static let databaseTableName = "households"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let timeZone = Column("time_zone")
        static let createdBy = Column("created_by")
        static let noteLifetimeDays = Column("note_lifetime_days")
        static let createdAt = Column("created_at")
    }
}

extension HouseholdRecord {
    /// Reads the columns by name: every household read decodes its household.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        timeZone = try row.decode(forColumn: Columns.timeZone)
        createdBy = try row.decode(forColumn: Columns.createdBy)
        noteLifetimeDays = try row.decode(forColumn: Columns.noteLifetimeDays)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
    }
}

extension InvitationRecord: HouseholdTable {
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
}

extension MemberRecord: HouseholdTable {
    static let databaseTableName = "members"

    enum Columns {
        static let householdId = Column("household_id")
        static let userId = Column("user_id")
        static let joinedAt = Column("joined_at")
    }
}

extension MemberRecord {
    /// Reads the columns by name: every household read checks membership through these rows.
    init(row: Row) throws {
        householdId = try row.decode(forColumn: Columns.householdId)
        userId = try row.decode(forColumn: Columns.userId)
        joinedAt = try row.decodeDate(forColumn: Columns.joinedAt)
    }
}

extension NoteRecord: HouseholdTable {
    static let databaseTableName = "notes"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let authorId = Column("author_id")
        static let text = Column("text")
        static let pinned = Column("pinned")
        static let createdAt = Column("created_at")
        static let expiresAt = Column("expires_at")
        static let photoType = Column("photo_type")
        static let photoEtag = Column("photo_etag")
    }

    /// Every column but the photo's bytes, which only the photo route reads.
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.householdId, Columns.authorId, Columns.text, Columns.pinned, Columns.createdAt,
            Columns.expiresAt, Columns.photoType, Columns.photoEtag,
        ]
    }
}

extension PaymentRecord: HouseholdTable {
    static let databaseTableName = "payments"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let fromId = Column("from_id")
        static let toId = Column("to_id")
        static let amount = Column("amount")
        static let currency = Column("currency")
        static let createdAt = Column("created_at")
    }
}

extension TripRecord: HouseholdTable {
    static let databaseTableName = "shopping_trips"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let shopperId = Column("shopper_id")
        static let total = Column("total")
        static let currency = Column("currency")
        static let billId = Column("bill_id")
        static let idempotencyKey = Column("idempotency_key")
        static let receiptType = Column("receipt_type")
        static let receiptEtag = Column("receipt_etag")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    /// Every column but the receipt's bytes, which only the receipt route reads.
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.householdId, Columns.shopperId, Columns.total, Columns.currency, Columns.billId,
            Columns.idempotencyKey, Columns.receiptType, Columns.receiptEtag, Columns.createdAt, Columns.updatedAt,
        ]
    }
}

extension RecurringBillRecord: HouseholdTable {
    static let databaseTableName = "recurring_bills"
}
