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

    /// The month `today` ends (`2026-01`), when it is that month's last day: the day month-end reminders go out.
    static func monthEnding(on today: LocalDay) -> String? {
        guard today.adding(days: 1).month != today.month else { return nil }
        return String(format: "%04d-%02d", today.year, today.month)
    }
}
