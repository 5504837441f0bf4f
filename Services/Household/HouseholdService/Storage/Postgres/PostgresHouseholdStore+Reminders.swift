import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func remind(
        in householdID: String, by creditor: String, debtors: [String]?, now: Date, interval: TimeInterval,
        notices: ChangeNotices<Reminded>?
    ) async throws -> Reminded {
        // Behind the household's lock, so two quick taps on two replicas cannot both send.
        try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: creditor).map(\.userId)
            let owed = try await db.owed(to: creditor, householdID)
            var sent: [String: Owed] = [:]
            var tooSoon: [String: Date] = [:]
            for debtor in try Reminders.debtors(named: debtors, members: members, owed: owed) {
                let last = try await db.namedRow(
                    """
                    SELECT sent_at FROM reminders
                    WHERE household_id = \(householdID) AND creditor_id = \(creditor) AND debtor_id = \(debtor)
                    """)?.date("sent_at")
                if let last, now.timeIntervalSince(last) < interval {
                    tooSoon[debtor] = last.addingTimeInterval(interval)
                    continue
                }
                try await db.execute(
                    """
                    INSERT INTO reminders (household_id, creditor_id, debtor_id, sent_at)
                    VALUES (\(householdID), \(creditor), \(debtor), \(now.storedMilliseconds))
                    ON CONFLICT (household_id, creditor_id, debtor_id) DO UPDATE SET sent_at = excluded.sent_at
                    """)
                sent[debtor] = owed[debtor]
            }
            return (sent, tooSoon)
        }
    }

    func claimMonthEndReminders(now: Date, notices: ChangeNotices<MonthEndClaims>?) async throws -> MonthEndClaims {
        // Each reminder is claimed by inserting its row: of the replicas running this job at once, the one whose
        // insert lands sends it; the others' inserts do nothing (ON CONFLICT) and they skip it.
        try await database.write(reporting: notices) { db in
            let clock = WallClock { now }
            let candidates = try await db.namedRows(
                """
                SELECT id, time_zone FROM households
                WHERE id IN (SELECT DISTINCT household_id FROM member_balances WHERE net < 0) ORDER BY id
                """)
            var due: [(householdID: String, month: String, debtor: String, owes: Owed)] = []
            for row in candidates {
                let householdID: String = try row.get("id")
                let zone: String = try row.get("time_zone")
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
                let (today, hour) = (clock.today(inZone: zone), calendar.component(.hour, from: now))
                var debts: [String: Owed] = [:]
                for (currency, net) in try await db.balances(householdID) {
                    for (member, amount) in net where amount < 0 { debts[member, default: [:]][currency] = -amount }
                }
                for (debtor, owes) in debts.sorted(by: { $0.key < $1.key }) {
                    let settings = try await db.settings(of: debtor)
                    guard let month = Reminders.monthEndDue(today: today, hour: hour, settings: settings) else {
                        continue
                    }
                    let claimed = try await db.execute(
                        """
                        INSERT INTO month_end_reminders_sent (household_id, month, user_id, sent_at)
                        VALUES (\(householdID), \(month), \(debtor), \(now.storedMilliseconds))
                        ON CONFLICT DO NOTHING RETURNING 1
                        """)
                    if claimed > 0 { due.append((householdID, month, debtor, owes)) }
                }
            }
            return due
        }
    }

    func settings(of userID: String) async throws -> MemberSettings {
        try await read { db in try await db.settings(of: userID) }
    }

    func changeSettings(
        of userID: String, reminderDaysBefore: Int?, reminderHour: Int?, boardBackground: String?, now: Date
    ) async throws -> MemberSettings {
        try await write { db in
            // The member's row locked (or its absence claimed by the insert below) for the read-modify-write.
            var settings = try await db.settings(of: userID, locking: true)
            if let reminderDaysBefore { settings.reminderDaysBefore = reminderDaysBefore }
            if let reminderHour { settings.reminderHour = reminderHour }
            if let boardBackground { settings.boardBackground = boardBackground.isEmpty ? nil : boardBackground }
            try await db.execute(
                """
                INSERT INTO member_settings (user_id, reminder_days_before, reminder_hour, board_background, updated_at)
                VALUES (\(userID), \(settings.reminderDaysBefore), \(settings.reminderHour), \(settings.boardBackground),
                    \(now.storedMilliseconds))
                ON CONFLICT (user_id) DO UPDATE SET reminder_days_before = excluded.reminder_days_before,
                    reminder_hour = excluded.reminder_hour, board_background = excluded.board_background,
                    updated_at = excluded.updated_at
                """)
            return settings
        }
    }

    func setPaymentHandles(of userID: String, in householdID: String, venmo: String?, paypal: String?, now: Date)
        async throws
    {
        try await write(locking: householdID) { db in
            _ = try await db.members(householdID, asMember: userID)
            try await db.execute(
                """
                INSERT INTO payment_handles (user_id, venmo, paypal, updated_at)
                VALUES (\(userID), \(venmo), \(paypal), \(now.storedMilliseconds))
                ON CONFLICT (user_id) DO UPDATE SET venmo = excluded.venmo, paypal = excluded.paypal,
                    updated_at = excluded.updated_at
                """)
        }
    }

    func paymentHandles(in householdID: String, asMember userID: String) async throws
        -> [(userID: String, venmo: String?, paypal: String?)]
    {
        try await write(.repeatableRead) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            return try await db.namedRows(
                """
                SELECT p.user_id, p.venmo, p.paypal FROM payment_handles p
                JOIN members m ON m.user_id = p.user_id AND m.household_id = \(householdID)
                """
            )
            .map {
                (
                    try $0.get("user_id", as: String.self), try $0.get("venmo", as: String?.self),
                    try $0.get("paypal", as: String?.self)
                )
            }
            .sorted { (members.firstIndex(of: $0.0) ?? 0) < (members.firstIndex(of: $1.0) ?? 0) }
        }
    }

    func paymentTarget(in householdID: String, from userID: String, to payee: String, currency: String) async throws
        -> (venmo: String?, paypal: String?, owed: Int)
    {
        try await write(.repeatableRead) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            guard members.contains(payee), payee != userID else { throw HouseholdError.notFound("The member") }
            let row = try await db.namedRow("SELECT venmo, paypal FROM payment_handles WHERE user_id = \(payee)")
            let owed = try await db.owed(to: payee, householdID)[userID]?[currency] ?? 0
            return (
                try row?.get("venmo", as: String?.self) ?? nil, try row?.get("paypal", as: String?.self) ?? nil, owed
            )
        }
    }
}

extension PostgresSession {
    /// Who owes `creditor` what under each currency's settle-up plan.
    func owed(to creditor: String, _ householdID: String) async throws -> [String: Owed] {
        var owed: [String: Owed] = [:]
        for (currency, net) in try await balances(householdID) {
            for transfer in SettleUp.plan(net) where transfer.to == creditor {
                owed[transfer.from, default: [:]][currency, default: 0] += transfer.amount
            }
        }
        return owed
    }

    /// A member's settings (the defaults until they change one); `locking` holds their row until the transaction
    /// ends.
    func settings(of userID: String, locking: Bool = false) async throws -> MemberSettings {
        guard
            let row = try await namedRow(
                """
                SELECT reminder_days_before, reminder_hour, board_background FROM member_settings
                WHERE user_id = \(userID) \(unescaped: locking ? "FOR UPDATE" : "")
                """)
        else { return MemberSettings() }
        return MemberSettings(
            reminderDaysBefore: try row.get("reminder_days_before"), reminderHour: try row.get("reminder_hour"),
            boardBackground: try row.get("board_background"))
    }
}

extension PostgresHouseholdStore {
    func claimChoreReminders(now: Date, limit: Int, notices: ChangeNotices<[ChoreReminder]>?) async throws
        -> [ChoreReminder]
    {
        // Each reminder is claimed by inserting its row: of the replicas running this job at once, the one whose
        // insert lands sends it; the others' inserts do nothing (ON CONFLICT) and they skip it.
        try await database.write(reporting: notices) { db in
            let days = ChoreDueRule.candidateDays(now: now)
            var claimed: [ChoreReminder] = []
            for row in try await db.namedRows(
                """
                SELECT c.id, c.household_id, c.name, c.assignee_id, c.next_due, h.time_zone
                FROM chores c JOIN households h ON h.id = c.household_id
                JOIN members m ON m.household_id = c.household_id AND m.user_id = c.assignee_id
                WHERE c.assignee_id IS NOT NULL AND c.next_due = ANY(\(days))
                    AND NOT EXISTS (SELECT 1 FROM chore_reminders_sent s
                        WHERE s.household_id = c.household_id AND s.chore_id = c.id AND s.due_on = c.next_due)
                    AND NOT EXISTS (SELECT 1 FROM completions k
                        WHERE k.household_id = c.household_id AND k.chore_id = c.id AND k.due_on = c.next_due)
                ORDER BY c.id
                """)
            {
                guard claimed.count < limit else { break }
                let reminder = ChoreReminder(
                    householdID: try row.get("household_id"), choreID: try row.get("id"),
                    choreName: try row.get("name"), assigneeID: try row.get("assignee_id"),
                    dueOn: try row.get("next_due"))
                let zone = TimeZone(identifier: try row.get("time_zone", as: String.self)) ?? .gmt
                guard ChoreDueRule.isDue(reminder.dueOn, now: now, zone: zone) else { continue }
                let inserted = try await db.execute(
                    """
                    INSERT INTO chore_reminders_sent (household_id, chore_id, due_on, user_id, sent_at)
                    VALUES (\(reminder.householdID), \(reminder.choreID), \(reminder.dueOn), \(reminder.assigneeID),
                        \(now.storedMilliseconds))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """)
                if inserted > 0 { claimed.append(reminder) }
            }
            return claimed
        }
    }
}
