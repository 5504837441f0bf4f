import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Who owes `creditor` what under each currency's settle-up plan.
    static func owed(to creditor: String, _ db: Database, _ householdID: String) throws -> [String: Owed] {
        var owed: [String: Owed] = [:]
        for (currency, net) in try balances(db, householdID) {
            for transfer in SettleUp.plan(net) where transfer.to == creditor {
                owed[transfer.from, default: [:]][currency, default: 0] += transfer.amount
            }
        }
        return owed
    }

    /// Records reminders from `creditor` to `debtors` (all who owe them when nil), at most one per debtor per
    /// `interval`, in one transaction so two quick taps cannot both send.
    func remind(
        in householdID: String, by creditor: String, debtors: [String]?, now: Date, interval: TimeInterval,
        notices: ChangeNotices<Reminded>?
    ) async throws -> Reminded {
        try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: creditor).map(\.userId)
            let owed = try Self.owed(to: creditor, db, householdID)
            var sent: [String: Owed] = [:]
            var tooSoon: [String: Date] = [:]
            for debtor in try Reminders.debtors(named: debtors, members: members, owed: owed) {
                let last = try Date.fetchOne(
                    db.cachedStatement(
                        sql:
                            "SELECT sent_at FROM reminders WHERE household_id = ? AND creditor_id = ? AND debtor_id = ?"
                    ), arguments: [householdID, creditor, debtor])
                if let last, now.timeIntervalSince(last) < interval {
                    tooSoon[debtor] = last.addingTimeInterval(interval)
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT INTO reminders (household_id, creditor_id, debtor_id, sent_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (household_id, creditor_id, debtor_id) DO UPDATE SET sent_at = excluded.sent_at
                        """,
                    arguments: [householdID, creditor, debtor, now])
                sent[debtor] = owed[debtor]
            }
            return (sent, tooSoon)
        }
    }

    /// Debtors whose month-end reminder is due at `now` (each by their own settings, in the household's zone) and
    /// was not sent yet this month, with what they owe; marks them sent in the same transaction, so each member is
    /// reminded once per household and month.
    func claimMonthEndReminders(now: Date, notices: ChangeNotices<MonthEndClaims>?) async throws -> MonthEndClaims {
        try await write(reporting: notices) { db in
            // The job's instant, so "today" in each household's zone is read as everywhere else.
            let clock = WallClock { now }
            let candidates = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, time_zone FROM households
                        WHERE id IN (SELECT DISTINCT household_id FROM member_balances WHERE net < 0)
                        """))
            var due: [(householdID: String, month: String, debtor: String, owes: Owed)] = []
            for row in candidates {
                let householdID: String = row["id"]
                let zone: String = row["time_zone"]
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
                let (today, hour) = (clock.today(inZone: zone), calendar.component(.hour, from: now))
                var debts: [String: Owed] = [:]
                for (currency, net) in try Self.balances(db, householdID) {
                    for (member, amount) in net where amount < 0 { debts[member, default: [:]][currency] = -amount }
                }
                for (debtor, owes) in debts.sorted(by: { $0.key < $1.key }) {
                    let settings = try Self.settings(db, of: debtor)
                    guard let month = Reminders.monthEndDue(today: today, hour: hour, settings: settings) else {
                        continue
                    }
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO month_end_reminders_sent (household_id, month, user_id, sent_at)
                            VALUES (?, ?, ?, ?)
                            """,
                        arguments: [householdID, month, debtor, now])
                    if db.changesCount > 0 { due.append((householdID, month, debtor, owes)) }
                }
            }
            return due
        }
    }

    // MARK: Member settings

    /// My settings (the defaults until I change one).
    func settings(of userID: String) async throws -> MemberSettings {
        try await read { db in try Self.settings(db, of: userID) }
    }

    /// Changes the given settings (an empty background goes back to the app's default) and returns them all.
    func changeSettings(
        of userID: String, reminderDaysBefore: Int?, reminderHour: Int?, boardBackground: String?, now: Date
    ) async throws -> MemberSettings {
        try await write { db in
            var settings = try Self.settings(db, of: userID)
            if let reminderDaysBefore { settings.reminderDaysBefore = reminderDaysBefore }
            if let reminderHour { settings.reminderHour = reminderHour }
            if let boardBackground { settings.boardBackground = boardBackground.isEmpty ? nil : boardBackground }
            try db.execute(
                sql: """
                    INSERT INTO member_settings
                        (user_id, reminder_days_before, reminder_hour, board_background, updated_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET reminder_days_before = excluded.reminder_days_before,
                        reminder_hour = excluded.reminder_hour, board_background = excluded.board_background,
                        updated_at = excluded.updated_at
                    """,
                arguments: [
                    userID, settings.reminderDaysBefore, settings.reminderHour, settings.boardBackground, now,
                ])
            return settings
        }
    }

    static func settings(_ db: Database, of userID: String) throws -> MemberSettings {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT reminder_days_before, reminder_hour, board_background FROM member_settings
                        WHERE user_id = ?
                        """), arguments: [userID])
        else { return MemberSettings() }
        return MemberSettings(
            reminderDaysBefore: row["reminder_days_before"], reminderHour: row["reminder_hour"],
            boardBackground: row["board_background"])
    }

    // MARK: Payment handles

    func setPaymentHandles(of userID: String, in householdID: String, venmo: String?, paypal: String?, now: Date)
        async throws
    {
        try await write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            try db.execute(
                sql: """
                    INSERT INTO payment_handles (user_id, venmo, paypal, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET venmo = excluded.venmo, paypal = excluded.paypal,
                        updated_at = excluded.updated_at
                    """,
                arguments: [userID, venmo, paypal, now])
        }
    }

    /// The members' handles (members without any are left out).
    func paymentHandles(in householdID: String, asMember userID: String) async throws
        -> [(userID: String, venmo: String?, paypal: String?)]
    {
        try await read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.user_id, p.venmo, p.paypal FROM payment_handles p
                        JOIN members m ON m.user_id = p.user_id AND m.household_id = ?
                        """), arguments: [householdID]
            )
            .map { ($0["user_id"], $0["venmo"], $0["paypal"]) }
            .sorted { (members.firstIndex(of: $0.0) ?? 0) < (members.firstIndex(of: $1.0) ?? 0) }
        }
    }

    /// The payee's handles and what I owe them in `currency` under the plan (0 when nothing).
    func paymentTarget(in householdID: String, from userID: String, to payee: String, currency: String) async throws
        -> (venmo: String?, paypal: String?, owed: Int)
    {
        try await read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            guard members.contains(payee), payee != userID else { throw HouseholdError.notFound("The member") }
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT venmo, paypal FROM payment_handles WHERE user_id = ?"),
                arguments: [payee])
            let owed = try Self.owed(to: payee, db, householdID)[userID]?[currency] ?? 0
            return (row?["venmo"], row?["paypal"], owed)
        }
    }
}

extension SQLiteHouseholdStore {
    func claimChoreReminders(now: Date, limit: Int, notices: ChangeNotices<[ChoreReminder]>?) async throws
        -> [ChoreReminder]
    {
        try await write(reporting: notices) { db in
            let days = ChoreDueRule.candidateDays(now: now)
            // A chore done for its due day has moved on to its next one; the completion check is for a chore done
            // early whose next due day is that same day.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.id, c.household_id, c.name, c.assignee_id, c.next_due, h.time_zone
                        FROM chores c JOIN households h ON h.id = c.household_id
                        JOIN members m ON m.household_id = c.household_id AND m.user_id = c.assignee_id
                        WHERE c.assignee_id IS NOT NULL AND c.next_due IN (?, ?, ?)
                            AND NOT EXISTS (SELECT 1 FROM chore_reminders_sent s
                                WHERE s.household_id = c.household_id AND s.chore_id = c.id AND s.due_on = c.next_due)
                            AND NOT EXISTS (SELECT 1 FROM completions k
                                WHERE k.household_id = c.household_id AND k.chore_id = c.id AND k.due_on = c.next_due)
                        ORDER BY c.id
                        """), arguments: StatementArguments(days))
            var claimed: [ChoreReminder] = []
            for row in rows where claimed.count < limit {
                let zone = TimeZone(identifier: row["time_zone"]) ?? .gmt
                let reminder = ChoreReminder(
                    householdID: row["household_id"], choreID: row["id"], choreName: row["name"],
                    assigneeID: row["assignee_id"], dueOn: row["next_due"])
                guard ChoreDueRule.isDue(reminder.dueOn, now: now, zone: zone) else { continue }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO chore_reminders_sent (household_id, chore_id, due_on, user_id, sent_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [reminder.householdID, reminder.choreID, reminder.dueOn, reminder.assigneeID, now])
                if db.changesCount > 0 { claimed.append(reminder) }
            }
            return claimed
        }
    }
}
