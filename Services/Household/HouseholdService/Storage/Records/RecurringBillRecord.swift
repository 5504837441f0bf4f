import Foundation

/// A row of `recurring_bills`: a bill to make on each day of its schedule (the next one in `nextOn`, a day in the
/// household's zone) until it is stopped; `split` is the request's split object as JSON.
struct RecurringBillRecord: Codable, Sendable, Equatable {
    var id: String
    var householdId: String
    var createdBy: String
    var description: String
    var amount: Int
    var currency: String
    /// Who pays each bill; its creator when nil.
    var payerId: String?
    var split: String
    var category: String
    var scheduleKind: String
    var scheduleValue: Int
    var nextOn: String
    var stoppedAt: Date?
    var createdAt: Date
    var updatedAt: Date
}
