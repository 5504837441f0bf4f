import Foundation
import PostgresNIO
import ServiceKit

// The records read from rows by column name (the SELECT lists below name the columns each one reads).

extension HouseholdRecord {
    static let columns = "h.id, h.name, h.time_zone, h.created_by, h.note_lifetime_days, h.created_at"

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), name: try row.get("name"), timeZone: try row.get("time_zone"),
            createdBy: try row.get("created_by"), noteLifetimeDays: try row.get("note_lifetime_days"),
            createdAt: try row.date("created_at"))
    }
}

extension MemberRecord {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(householdId: try row.get("household_id"), userId: try row.get("user_id"), joinedAt: try row.date("joined_at"))
    }
}

extension InvitationRecord {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), inviterId: try row.get("inviter_id"),
            inviteeId: try row.get("invitee_id"), status: try row.get("status"), createdAt: try row.date("created_at"),
            respondedAt: try row.optionalDate("responded_at"))
    }
}

extension ChoreRecord {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), name: try row.get("name"),
            points: try row.get("points"), scheduleKind: try row.get("schedule_kind"),
            scheduleEvery: try row.get("schedule_every"), scheduleWeekdays: try row.get("schedule_weekdays"),
            scheduleDay: try row.get("schedule_day"), assignmentKind: try row.get("assignment_kind"),
            assignmentFixed: try row.get("assignment_fixed"), assignmentOrder: try row.get("assignment_order"),
            assigneeId: try row.get("assignee_id"), nextDue: try row.get("next_due"),
            createdAt: try row.date("created_at"))
    }
}

extension CompletionRecord {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), choreId: try row.get("chore_id"),
            choreName: try row.get("chore_name"), userId: try row.get("user_id"), points: try row.get("points"),
            dueOn: try row.get("due_on"), completedOn: try row.get("completed_on"),
            completedAt: try row.date("completed_at"), note: try row.get("note"))
    }
}

extension NoteRecord {
    /// Every column but the photo's bytes, which only the photo route reads.
    static let columns = "id, household_id, author_id, text, pinned, created_at, expires_at, photo_type, photo_etag"

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), authorId: try row.get("author_id"),
            text: try row.get("text"), pinned: try row.get("pinned"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), photoType: try row.get("photo_type"),
            photoEtag: try row.get("photo_etag"))
    }
}

extension EventRecord {
    static let columns = """
        id, household_id, creator_id, title, note, place, starts_at, ends_at, finishes_at, remind_minutes_before, \
        remind_at, reminded_at, cancelled_at, created_at, updated_at
        """

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), creatorId: try row.get("creator_id"),
            title: try row.get("title"), note: try row.get("note"), place: try row.get("place"),
            startsAt: try row.date("starts_at"), endsAt: try row.optionalDate("ends_at"),
            finishesAt: try row.date("finishes_at"), remindMinutesBefore: try row.get("remind_minutes_before"),
            remindAt: try row.date("remind_at"), remindedAt: try row.optionalDate("reminded_at"),
            cancelledAt: try row.optionalDate("cancelled_at"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"))
    }
}

extension ActivityRecord {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), kind: try row.get("kind"),
            actorId: try row.get("actor_id"), subject: try row.get("subject"), createdAt: try row.date("created_at"))
    }
}

extension GroceryItemRecord {
    static let columns = "id, household_id, owner_id, name, merge_key, quantity, note, visible, created_by, created_at"

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), ownerId: try row.get("owner_id"),
            name: try row.get("name"), mergeKey: try row.get("merge_key"), quantity: try row.get("quantity"),
            note: try row.get("note"), visible: try row.get("visible"), createdBy: try row.get("created_by"),
            createdAt: try row.date("created_at"))
    }
}

extension BillRecord {
    static let columns = """
        id, household_id, description, amount, currency, payer_id, split_kind, created_by, idempotency_key, \
        created_at, updated_at, trip_id, category
        """

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), description: try row.get("description"),
            amount: try row.get("amount"), currency: try row.get("currency"), payerId: try row.get("payer_id"),
            splitKind: try row.get("split_kind"), createdBy: try row.get("created_by"),
            idempotencyKey: try row.get("idempotency_key"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), tripId: try row.get("trip_id"), category: try row.get("category"))
    }
}

extension TripRecord {
    /// Every column but the receipt's bytes, which only the receipt route reads.
    static let columns = """
        id, household_id, shopper_id, total, currency, bill_id, idempotency_key, receipt_type, receipt_etag, \
        created_at, updated_at
        """

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), shopperId: try row.get("shopper_id"),
            total: try row.get("total"), currency: try row.get("currency"), billId: try row.get("bill_id"),
            idempotencyKey: try row.get("idempotency_key"), receiptType: try row.get("receipt_type"),
            receiptEtag: try row.get("receipt_etag"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"))
    }
}
