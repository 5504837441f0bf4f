import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Recurring bills (rent, internet): a bill made by a job on each day of its schedule in the household's zone, with
/// its payer told; any member sees them, their creator or the household's admin changes or stops them.
struct RecurringBillsController {
    let store: any HouseholdStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let recurring = HouseholdPaths.households + "/:household/recurring-bills"
        router.post(RouterPath(recurring), use: create)
        router.get(RouterPath(recurring), use: list)
        router.get(RouterPath(recurring + "/:recurring"), use: show)
        router.put(RouterPath(recurring + "/:recurring"), use: replace)
        router.delete(RouterPath(recurring + "/:recurring"), use: stop)
    }

    struct ScheduleFields: Codable, Sendable {
        /// `monthly`, `weekly` or `everyDays`.
        var kind: String
        /// Monthly: 1-28; leave it out and set `lastDay` for the month's last day.
        var dayOfMonth: Int?
        var lastDay: Bool?
        /// Weekly: 1 (Monday) to 7 (Sunday).
        var weekday: Int?
        /// Every so many days, 1-365.
        var every: Int?
        /// Requests only: the first day it may be made (today in the household's zone by default).
        var startOn: String?
    }

    struct RecurringBillRequest: Decodable, Sendable {
        var description: String
        var amount: Int
        var currency: String
        var payerId: String?
        var split: BillDraft.Split
        var category: String?
        var schedule: ScheduleFields

        func recurring() throws -> RecurringBill {
            let draft = try BillsController.BillRequest(
                description: description, amount: amount, currency: currency, payerId: payerId, split: split,
                category: category
            ).draft()
            let schedule = try BillSchedule.make(
                kind: self.schedule.kind, dayOfMonth: self.schedule.dayOfMonth, lastDay: self.schedule.lastDay,
                weekday: self.schedule.weekday, every: self.schedule.every)
            return RecurringBill(
                draft: draft, schedule: schedule,
                startOn: try HouseholdInput.day(self.schedule.startOn.map { Substring($0) }, field: "schedule.startOn"))
        }
    }

    struct RecurringBillView: ResponseEncodable, Sendable {
        var id: String
        var description: String
        var amount: Int
        var currency: String
        /// Who pays each bill; its creator when nil.
        var payerId: String?
        var split: BillDraft.Split
        var category: String
        var schedule: ScheduleFields
        /// The next day a bill is made (in the household's zone); nil once stopped.
        var nextOn: String?
        var stopped: Bool
        var createdBy: String
        var createdAt: Date
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<RecurringBillView>
    {
        let input = try await request.decode(as: RecurringBillRequest.self, context: context)
        let record = try await store.createRecurringBill(
            try input.recurring(), id: UUID().uuidString.lowercased(),
            in: try context.parameters.require("household"), by: context.user.userID, now: clock.now)
        return EditedResponse(status: .created, response: try Self.view(record))
    }

    /// The household's recurring bills, stopped ones included, newest first.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<RecurringBillView> {
        let page = try request.pageRequest()
        let records = try await store.recurringBills(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            after: try HouseholdInput.newestFirstCursor(page), limit: page.limit + 1)
        return Page(fetched: try records.map(Self.view), limit: page.limit) {
            [String($0.createdAt.timeIntervalSince1970), $0.id]
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> RecurringBillView {
        try Self.view(
            try await store.recurringBill(
                try context.parameters.require("recurring"), in: try context.parameters.require("household"),
                asMember: context.user.userID))
    }

    /// Replaces the bill and its schedule (the creator or the household's admin); the bills already made stay.
    @Sendable func replace(_ request: Request, context: AuthenticatedContext) async throws -> RecurringBillView {
        let input = try await request.decode(as: RecurringBillRequest.self, context: context)
        return try Self.view(
            try await store.replaceRecurringBill(
                try context.parameters.require("recurring"), in: try context.parameters.require("household"),
                with: try input.recurring(), by: context.user.userID, now: clock.now))
    }

    /// Stops it for good (the creator or the household's admin); the answer is the stopped recurring bill.
    @Sendable func stop(_ request: Request, context: AuthenticatedContext) async throws -> RecurringBillView {
        try Self.view(
            try await store.stopRecurringBill(
                try context.parameters.require("recurring"), in: try context.parameters.require("household"),
                by: context.user.userID, now: clock.now))
    }

    static func view(_ record: RecurringBillRecord) throws -> RecurringBillView {
        let draft = try RecurringBill.draft(of: record)
        var schedule = ScheduleFields(kind: record.scheduleKind)
        switch RecurringBill.schedule(of: record) {
        case .monthly(let day) where day == BillSchedule.lastDay: schedule.lastDay = true
        case .monthly(let day): schedule.dayOfMonth = day
        case .weekly(let weekday): schedule.weekday = weekday
        case .everyDays(let days): schedule.every = days
        }
        return RecurringBillView(
            id: record.id, description: record.description, amount: record.amount, currency: record.currency,
            payerId: record.payerId, split: draft.split, category: record.category, schedule: schedule,
            nextOn: record.stoppedAt == nil ? record.nextOn : nil, stopped: record.stoppedAt != nil,
            createdBy: record.createdBy, createdAt: record.createdAt)
    }
}
