import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    func createEvent(
        _ draft: EventRules.Draft, id: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String]) {
        let change = try await write(reporting: notices) { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let event = EventRecord(draft, id: id, householdID: householdID, creatorID: userID, now: now)
            try event.insert(db)
            try Self.setAnswer(db, event, userID, .yes, now)
            try Self.record(db, householdID, "event_created", userID, "scheduled \(draft.title)", now)
            return HouseholdChange(
                value: StoredEvent(event: event, answers: [userID: .yes], timeZone: household.timeZone),
                members: members.map(\.userId))
        }
        return (change.value, change.members)
    }

    func events(
        of householdID: String, asMember userID: String, past: Bool, now: Date,
        after cursor: (startsAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredEvent] {
        try await read { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            var request = EventRecord.filter(EventRecord.Columns.householdId == householdID)
            request =
                past
                ? request.filter(EventRecord.Columns.finishesAt < now)
                : request.filter(EventRecord.Columns.finishesAt >= now)
            if let cursor {
                request = request.filter(
                    sql: past ? "(starts_at, id) < (?, ?)" : "(starts_at, id) > (?, ?)",
                    arguments: [cursor.startsAt, cursor.id])
            }
            let events = try request.order(sql: past ? "starts_at DESC, id DESC" : "starts_at, id").limit(limit)
                .fetchAll(db)
            let answers = try Self.answers(db, events.map(\.id), members: members.map(\.userId))
            return events.map { StoredEvent(event: $0, answers: answers[$0.id] ?? [:], timeZone: household.timeZone) }
        }
    }

    func event(_ eventID: String, in householdID: String, asMember userID: String) async throws -> StoredEvent {
        try await read { db in try Self.storedEvent(db, eventID, householdID, userID).stored }
    }

    func editEvent(
        _ eventID: String, in householdID: String, by userID: String, _ change: EventRules.Change, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent {
        try await write(reporting: notices) { db in
            let (found, members) = try Self.storedEvent(db, eventID, householdID, userID)
            var stored = found
            guard stored.event.creatorId == userID else { throw HouseholdError.notEventCreator(action: "edit it") }
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            try EventRules.apply(change, to: &stored.event, now: now)
            try stored.event.update(db)
            try Self.record(db, householdID, "event_updated", userID, "changed \(stored.event.title)", now)
            return HouseholdChange(value: stored, members: members)
        }.value
    }

    func cancelEvent(
        _ eventID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String]) {
        let change = try await write(reporting: notices) { db in
            let (found, members) = try Self.storedEvent(db, eventID, householdID, userID)
            var stored = found
            guard stored.event.creatorId == userID else { throw HouseholdError.notEventCreator(action: "cancel it") }
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            stored.event.cancelledAt = now
            stored.event.updatedAt = now
            try stored.event.update(db)
            try Self.record(db, householdID, "event_cancelled", userID, "cancelled \(stored.event.title)", now)
            return HouseholdChange(value: stored, members: members)
        }
        return (change.value, change.members)
    }

    func answer(
        _ eventID: String, in householdID: String, by userID: String, _ answer: EventRules.Answer, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent {
        try await write(reporting: notices) { db in
            let (found, members) = try Self.storedEvent(db, eventID, householdID, userID)
            var stored = found
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            try Self.setAnswer(db, stored.event, userID, answer, now)
            stored.answers[userID] = answer
            return HouseholdChange(value: stored, members: members)
        }.value
    }

    func claimEventReminders(now: Date, limit: Int, notices: ChangeNotices<[ClaimedEventReminder]>?) async throws
        -> [ClaimedEventReminder]
    {
        // One writer: what this transaction reads as unsent cannot be claimed by another before it commits.
        try await write(reporting: notices) { db in
            let due = try EventRecord.filter(
                EventRecord.Columns.remindedAt == nil && EventRecord.Columns.cancelledAt == nil
                    && EventRecord.Columns.remindAt <= now && EventRecord.Columns.startsAt > now
            ).order(EventRecord.Columns.remindAt, EventRecord.Columns.id).limit(limit).fetchAll(db)
            return try due.map { event in
                var event = event
                event.remindedAt = now
                try event.update(db)
                let zone =
                    try String.fetchOne(
                        db.cachedStatement(sql: "SELECT time_zone FROM households WHERE id = ?"),
                        arguments: [event.householdId]) ?? "UTC"
                let members = try MemberRecord.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM members WHERE household_id = ? ORDER BY joined_at, rowid"),
                    arguments: [event.householdId]
                ).map(\.userId)
                let answers = try Self.answers(db, [event.id], members: members)[event.id] ?? [:]
                return ClaimedEventReminder(
                    event: event, timeZone: zone, recipients: EventRules.reminded(members: members, answers: answers))
            }
        }
    }

    // MARK: Helpers

    /// The household's event `eventID` with its answers, for a member (else 404), and the members' ids.
    private static func storedEvent(_ db: Database, _ eventID: String, _ householdID: String, _ userID: String)
        throws -> (stored: StoredEvent, members: [String])
    {
        let (household, members) = try household(db, householdID, asMember: userID)
        guard
            let event = try EventRecord.filter(
                EventRecord.Columns.id == eventID && EventRecord.Columns.householdId == householdID
            ).fetchOne(db)
        else { throw HouseholdError.notFound("The event") }
        let ids = members.map(\.userId)
        let answers = try Self.answers(db, [eventID], members: ids)[eventID] ?? [:]
        return (StoredEvent(event: event, answers: answers, timeZone: household.timeZone), ids)
    }

    /// The answers to `eventIDs` of those still members (a former member's answer stays stored, unshown).
    private static func answers(_ db: Database, _ eventIDs: [String], members: [String]) throws
        -> [String: [String: EventRules.Answer]]
    {
        guard !eventIDs.isEmpty else { return [:] }
        let current = Set(members)
        var answers: [String: [String: EventRules.Answer]] = [:]
        let rows = try SQLRequest<Row>(
            literal: "SELECT event_id, user_id, answer FROM household_event_answers WHERE event_id IN \(eventIDs)"
        ).fetchAll(db)
        for row in rows {
            let (eventID, userID): (String, String) = (row["event_id"], row["user_id"])
            guard current.contains(userID), let answer = EventRules.Answer(rawValue: row["answer"]) else { continue }
            answers[eventID, default: [:]][userID] = answer
        }
        return answers
    }

    private static func setAnswer(
        _ db: Database, _ event: EventRecord, _ userID: String, _ answer: EventRules.Answer, _ now: Date
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO household_event_answers (event_id, household_id, user_id, answer, answered_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (event_id, user_id) DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at
                """,
            arguments: [event.id, event.householdId, userID, answer.rawValue, now])
    }
}
