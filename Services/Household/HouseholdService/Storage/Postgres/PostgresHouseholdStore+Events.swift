import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func createEvent(
        _ draft: EventRules.Draft, id: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String]) {
        let change = try await write(locking: householdID, reporting: notices) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let event = EventRecord(draft, id: id, householdID: householdID, creatorID: userID, now: now)
            try await db.execute(
                """
                INSERT INTO household_events (\(unescaped: EventRecord.columns))
                VALUES (\(event.id), \(householdID), \(userID), \(event.title), \(event.note), \(event.place),
                    \(event.startsAt.storedMilliseconds), \(event.endsAt?.storedMilliseconds),
                    \(event.finishesAt.storedMilliseconds), \(event.remindMinutesBefore),
                    \(event.remindAt.storedMilliseconds), NULL, NULL, \(now.storedMilliseconds),
                    \(now.storedMilliseconds))
                """)
            try await db.setAnswer(event, userID, .yes, now)
            try await db.record(householdID, "event_created", userID, "scheduled \(draft.title)", now)
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
        try await write(.repeatableRead) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let (at, id) = (cursor?.startsAt.storedMilliseconds, cursor?.id)
            let query: PostgresQuery =
                past
                ? """
                SELECT \(unescaped: EventRecord.columns) FROM household_events
                WHERE household_id = \(householdID) AND finishes_at < \(now.storedMilliseconds)
                    AND (\(id)::text IS NULL OR (starts_at, id) < (\(at), \(id)))
                ORDER BY starts_at DESC, id DESC LIMIT \(limit)
                """
                : """
                SELECT \(unescaped: EventRecord.columns) FROM household_events
                WHERE household_id = \(householdID) AND finishes_at >= \(now.storedMilliseconds)
                    AND (\(id)::text IS NULL OR (starts_at, id) > (\(at), \(id)))
                ORDER BY starts_at, id LIMIT \(limit)
                """
            let events = try await db.namedRows(query).map(EventRecord.init)
            let answers = try await db.answers(events.map(\.id), members: members.map(\.userId))
            return events.map { StoredEvent(event: $0, answers: answers[$0.id] ?? [:], timeZone: household.timeZone) }
        }
    }

    func event(_ eventID: String, in householdID: String, asMember userID: String) async throws -> StoredEvent {
        try await write(.repeatableRead) { db in try await db.storedEvent(eventID, householdID, userID).stored }
    }

    func editEvent(
        _ eventID: String, in householdID: String, by userID: String, _ change: EventRules.Change, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent {
        try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.storedEvent(eventID, householdID, userID)
            var stored = found
            guard stored.event.creatorId == userID else { throw HouseholdError.notEventCreator(action: "edit it") }
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            try EventRules.apply(change, to: &stored.event, now: now)
            let event = stored.event
            try await db.execute(
                """
                UPDATE household_events SET title = \(event.title), note = \(event.note), place = \(event.place),
                    starts_at = \(event.startsAt.storedMilliseconds), ends_at = \(event.endsAt?.storedMilliseconds),
                    finishes_at = \(event.finishesAt.storedMilliseconds),
                    remind_minutes_before = \(event.remindMinutesBefore),
                    remind_at = \(event.remindAt.storedMilliseconds),
                    reminded_at = \(event.remindedAt?.storedMilliseconds), updated_at = \(now.storedMilliseconds)
                WHERE id = \(eventID)
                """)
            try await db.record(householdID, "event_updated", userID, "changed \(event.title)", now)
            return HouseholdChange(value: stored, members: members)
        }.value
    }

    func cancelEvent(
        _ eventID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String]) {
        let change = try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.storedEvent(eventID, householdID, userID)
            var stored = found
            guard stored.event.creatorId == userID else { throw HouseholdError.notEventCreator(action: "cancel it") }
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            stored.event.cancelledAt = now
            stored.event.updatedAt = now
            try await db.execute(
                """
                UPDATE household_events SET cancelled_at = \(now.storedMilliseconds), updated_at = \(now.storedMilliseconds)
                WHERE id = \(eventID)
                """)
            try await db.record(householdID, "event_cancelled", userID, "cancelled \(stored.event.title)", now)
            return HouseholdChange(value: stored, members: members)
        }
        return (change.value, change.members)
    }

    func answer(
        _ eventID: String, in householdID: String, by userID: String, _ answer: EventRules.Answer, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent {
        try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.storedEvent(eventID, householdID, userID)
            var stored = found
            guard stored.event.cancelledAt == nil else { throw HouseholdError.eventCancelled }
            try await db.setAnswer(stored.event, userID, answer, now)
            stored.answers[userID] = answer
            return HouseholdChange(value: stored, members: members)
        }.value
    }

    func claimEventReminders(now: Date, limit: Int, notices: ChangeNotices<[ClaimedEventReminder]>?) async throws
        -> [ClaimedEventReminder]
    {
        // Claimed by marking them in one statement: rows another replica's claim holds are skipped, and a row it
        // claimed meanwhile fails the conditions again once locked (READ COMMITTED re-reads it), so each reminder is
        // marked, and sent, by one claim alone.
        try await database.write(reporting: notices) { db in
            let at = now.storedMilliseconds
            let events = try await db.namedRows(
                """
                UPDATE household_events SET reminded_at = \(at)
                WHERE id IN (
                    SELECT id FROM household_events
                    WHERE reminded_at IS NULL AND cancelled_at IS NULL AND remind_at <= \(at) AND starts_at > \(at)
                    ORDER BY remind_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    AND reminded_at IS NULL AND cancelled_at IS NULL
                RETURNING \(unescaped: EventRecord.columns)
                """
            ).map(EventRecord.init).sorted { ($0.remindAt, $0.id) < ($1.remindAt, $1.id) }
            var claimed: [ClaimedEventReminder] = []
            for event in events {
                let row = try await db.namedRow("SELECT time_zone FROM households WHERE id = \(event.householdId)")
                let zone: String = try row?.get("time_zone", as: String.self) ?? "UTC"
                let members = try await db.allMembers(event.householdId).map(\.userId)
                let answers = try await db.answers([event.id], members: members)[event.id] ?? [:]
                claimed.append(
                    ClaimedEventReminder(
                        event: event, timeZone: zone,
                        recipients: EventRules.reminded(members: members, answers: answers)))
            }
            return claimed
        }
    }
}

extension PostgresSession {
    /// The household's event `eventID` with its answers, for a member (else 404), and the members' ids.
    fileprivate func storedEvent(_ eventID: String, _ householdID: String, _ userID: String) async throws
        -> (stored: StoredEvent, members: [String])
    {
        let (household, members) = try await household(householdID, asMember: userID)
        guard !PostgresHouseholdStore.holdsNUL(eventID),
            let row = try await namedRow(
                """
                SELECT \(unescaped: EventRecord.columns) FROM household_events
                WHERE id = \(eventID) AND household_id = \(householdID)
                """)
        else { throw HouseholdError.notFound("The event") }
        let ids = members.map(\.userId)
        let answers = try await self.answers([eventID], members: ids)[eventID] ?? [:]
        return (StoredEvent(event: try EventRecord(row), answers: answers, timeZone: household.timeZone), ids)
    }

    /// The answers to `eventIDs` of those still members (a former member's answer stays stored, unshown).
    fileprivate func answers(_ eventIDs: [String], members: [String]) async throws
        -> [String: [String: EventRules.Answer]]
    {
        guard !eventIDs.isEmpty else { return [:] }
        let current = Set(members)
        var answers: [String: [String: EventRules.Answer]] = [:]
        for row in try await namedRows(
            "SELECT event_id, user_id, answer FROM household_event_answers WHERE event_id = ANY(\(eventIDs))")
        {
            let (eventID, userID, text): (String, String, String) = (
                try row.get("event_id"), try row.get("user_id"), try row.get("answer")
            )
            guard current.contains(userID), let answer = EventRules.Answer(rawValue: text) else { continue }
            answers[eventID, default: [:]][userID] = answer
        }
        return answers
    }

    fileprivate func setAnswer(_ event: EventRecord, _ userID: String, _ answer: EventRules.Answer, _ now: Date)
        async throws
    {
        try await execute(
            """
            INSERT INTO household_event_answers (event_id, household_id, user_id, answer, answered_at)
            VALUES (\(event.id), \(event.householdId), \(userID), \(answer.rawValue), \(now.storedMilliseconds))
            ON CONFLICT (event_id, user_id) DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at
            """)
    }
}
