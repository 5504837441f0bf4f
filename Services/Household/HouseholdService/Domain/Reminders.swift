import Foundation
import PlatformKit

/// What one member owes, per currency (currency -> minor units).
typealias Owed = [String: Int]

/// Reminding members who owe money: by a creditor (at most once a day per debtor) and at a month's end.
enum Reminders {
    /// How long a creditor waits before reminding the same member again.
    static let interval: TimeInterval = 86_400

    /// "12.34 EUR and 5.00 USD".
    static func describe(_ owes: Owed) -> String {
        owes.sorted { $0.key < $1.key }.map { "\(MinorUnits.decimal($0.value, $0.key)) \($0.key)" }
            .joined(separator: " and ")
    }

    /// The notice a creditor's reminder sends.
    static func fromCreditor(_ owes: Owed) -> String { "Friendly reminder: you owe a roommate \(describe(owes))." }

    /// The notice sent on the last day of a month to everyone who owes money.
    static func atMonthEnd(_ owes: Owed) -> String {
        "The month is ending: you owe \(describe(owes)) in your household."
    }

    /// The month (`2026-01`) whose month-end reminder is due for a member at local `today` and `hour`: from
    /// `daysBefore` days before the month's last day at `reminderHour` until the month ends (a job that ran
    /// late still reminds). With the defaults (0, 0) that is the whole last day.
    static func monthEndDue(today: LocalDay, hour: Int, settings: MemberSettings) -> String? {
        var daysToEnd = 0
        while daysToEnd <= settings.reminderDaysBefore, today.adding(days: daysToEnd + 1).month == today.month {
            daysToEnd += 1
        }
        guard daysToEnd <= settings.reminderDaysBefore else { return nil }
        guard daysToEnd < settings.reminderDaysBefore || hour >= settings.reminderHour else { return nil }
        return String(format: "%04d-%02d", today.year, today.month)
    }
}

extension Reminders {
    /// Whom a creditor's reminder goes to: the `named` debtors, each a member who owes them, or everyone who owes
    /// them (`owed`), in id order. Throws when a named one is no member or owes nothing, or nobody owes anything.
    static func debtors(named: [String]?, members: [String], owed: [String: Owed]) throws -> [String] {
        if let named {
            guard named.allSatisfy(members.contains) else { throw HouseholdError.notFound("The member") }
            guard named.allSatisfy({ owed[$0] != nil }) else { throw HouseholdError.nothingOwed(.byThatMember) }
        }
        guard !owed.isEmpty else { throw HouseholdError.nothingOwed(.byAnybody) }
        return named ?? owed.keys.sorted()
    }
}
