import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Shared bills, balances per currency, the settle-up plan, and payments between members (a bill's image is
/// ``BillImagesController``'s).
struct BillsController {
    let store: any HouseholdStore
    let directory: any UserDirectory
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let bills = HouseholdPaths.households + "/:household/bills"
        router.post(RouterPath(bills), use: create)
        router.get(RouterPath(bills), use: list)
        router.get(RouterPath(bills + "/:bill"), use: show)
        router.put(RouterPath(bills + "/:bill"), use: replace)
        router.delete(RouterPath(bills + "/:bill"), use: delete)
        router.get(RouterPath(HouseholdPaths.households + "/:household/balances"), use: balances)
        router.post(RouterPath(HouseholdPaths.households + "/:household/payments"), use: pay)
    }

    struct BillRequest: Decodable, Sendable {
        var description: String
        /// Minor units (cents) of `currency`.
        var amount: Int
        var currency: String
        /// Who paid it all; the member adding the bill when neither this nor `payers` is sent.
        var payerId: String?
        /// Who paid when several did, each with their amount (instead of `payerId`).
        var payers: [BillPayers.Payer]?
        /// Decoded as sent; its rules are the draft's.
        var split: BillDraft.Split
        /// One of ``BillCategory/all``; `other` when not sent.
        var category: String?

        /// The bill asked for; its amount and split are checked when it is divided among the members.
        func draft() throws -> BillDraft {
            BillDraft(
                description: try Validate.text(description, field: "description", max: 100), amount: amount,
                currency: try Money.currency(currency), payerID: payerId, split: split,
                category: try BillCategory.parse(category), payers: payers)
        }
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<BillView> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: BillRequest.self, context: context)
        let key = try IdempotencyKey.of(request)
        let me = context.user.userID
        let (stored, created) = try await store.createBill(
            try input.draft(), id: UUID().uuidString.lowercased(), in: householdID, by: me,
            idempotencyKey: key, now: clock.now,
            notices: ChangeNotices(sink: notices, notices: { Self.billAddedNotices($0, by: me) }))
        return EditedResponse(status: created ? .created : .ok, response: Self.view(stored))
    }

    /// The notice of a new bill to the members who share or paid it (each once), but not to whoever added it.
    static func billAddedNotices(_ added: BillAdded, by userID: String) -> [Notice] {
        let others = Set(added.shares.keys).union(added.paid.keys).subtracting([userID])
        guard !others.isEmpty else { return [] }
        return [
            Notice(
                recipients: others.sorted(), kind: "household.bill_added",
                text: "New shared bill: \(added.bill.description)",
                link: HouseholdPaths.households + "/" + added.bill.householdId + "/bills/" + added.bill.id)
        ]
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<BillView> {
        let page = try request.pageRequest()
        let category = try request.uri.queryParameters["category"].map { try BillCategory.parse(String($0)) }
        let rows = try await store.bills(
            of: try context.parameters.require("household"), asMember: context.user.userID, category: category,
            after: try HouseholdInput.newestFirstCursor(page), limit: page.limit + 1)
        return Page(fetched: rows.map(Self.view), limit: page.limit) {
            [String($0.createdAt.timeIntervalSince1970), $0.id]
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> BillView {
        Self.view(
            try await store.bill(
                try context.parameters.require("bill"), in: try context.parameters.require("household"),
                asMember: context.user.userID))
    }

    /// Replaces a bill (any member may correct it); balances follow at once.
    @Sendable func replace(_ request: Request, context: AuthenticatedContext) async throws -> BillView {
        let input = try await request.decode(as: BillRequest.self, context: context)
        return Self.view(
            try await store.replaceBill(
                try context.parameters.require("bill"), in: try context.parameters.require("household"),
                with: try input.draft(), by: context.user.userID, now: clock.now))
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.deleteBill(
            try context.parameters.require("bill"), in: try context.parameters.require("household"),
            by: context.user.userID, now: clock.now)
        return .noContent
    }

    struct CurrencyBalances: Encodable, Sendable {
        struct Net: Encodable, Sendable {
            var userId: String
            var net: Int
        }
        struct Mine: Encodable, Sendable {
            var net: Int
            /// Payments I should make under the plan.
            var owes: [Transfer]
            /// Payments I should receive under the plan.
            var owed: [Transfer]
        }
        var currency: String
        var members: [Net]
        /// The fewest payments that settle everyone in this currency.
        var plan: [Transfer]
        var mine: Mine
    }

    struct Balances: ResponseEncodable, Sendable {
        var currencies: [CurrencyBalances]
    }

    /// Balances per currency (never converted), the settle-up plan, and my part of it.
    @Sendable func balances(_ request: Request, context: AuthenticatedContext) async throws -> Balances {
        let me = context.user.userID
        let (members, net) = try await store.balances(
            of: try context.parameters.require("household"), asMember: me)
        return Balances(
            currencies: BalanceSheet(members: members, net: net, me: me).currencies.map {
                CurrencyBalances(
                    currency: $0.currency, members: $0.members.map { .init(userId: $0.userID, net: $0.net) },
                    plan: $0.plan, mine: .init(net: $0.myNet, owes: $0.owes, owed: $0.owed))
            })
    }

    struct PaymentRequest: Decodable {
        var to: String
        var amount: Int
        var currency: String
    }

    /// Records that I paid a member (a settlement); their balance and mine move by the amount.
    @Sendable func pay(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<Transfer> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: PaymentRequest.self, context: context)
        let draft = try PaymentDraft(
            from: context.user.userID, to: input.to, amount: input.amount, currency: input.currency)
        let payment = PaymentRecord(
            id: UUID().uuidString.lowercased(), householdId: householdID, fromId: draft.from, toId: draft.to,
            amount: draft.amount, currency: draft.currency, createdAt: clock.now)
        // The name first, for the notice written with the payment; a directory that cannot answer only costs the
        // notice its name.
        let payer = (try? await directory.users(ids: [payment.fromId]))?.first?.displayName
        try await store.recordPayment(
            payment,
            notices: ChangeNotices(sink: notices) { payment in
                [
                    Notice(
                        recipients: [payment.toId], kind: "household.payment",
                        text: Self.paidNotice(payer: payer, amount: payment.amount, currency: payment.currency),
                        link: HouseholdPaths.households + "/" + payment.householdId + "/balances")
                ]
            })
        return EditedResponse(
            status: .created, response: Transfer(from: payment.fromId, to: payment.toId, amount: payment.amount))
    }

    /// "Sam paid you 12.50 EUR." ("A roommate" when the payer's name is unknown).
    static func paidNotice(payer: String?, amount: Int, currency: String) -> String {
        let name = payer.flatMap { $0.isEmpty ? nil : $0 } ?? "A roommate"
        return "\(name) paid you \(MinorUnits.decimal(amount, currency)) \(currency)."
    }
}

extension Transfer: ResponseGenerator, ResponseEncodable {}
