import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// Shared bills, balances per currency, the settle-up plan, and payments between members.
struct BillsController {
    let database: HouseholdDatabase
    let events: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let bills = HouseholdPaths.households + "/:household/bills"
        router.post(RouterPath(bills), use: create)
        router.get(RouterPath(bills), use: list)
        router.get(RouterPath(bills + "/:bill"), use: show)
        router.put(RouterPath(bills + "/:bill"), use: replace)
        router.put(RouterPath(bills + "/:bill/image"), use: uploadImage)
        router.get(RouterPath(bills + "/:bill/image"), use: image)
        router.delete(RouterPath(bills + "/:bill/image"), use: deleteImage)
        router.delete(RouterPath(bills + "/:bill"), use: delete)
        router.get(RouterPath(HouseholdPaths.households + "/:household/balances"), use: balances)
        router.post(RouterPath(HouseholdPaths.households + "/:household/payments"), use: pay)
    }

    struct SplitBody: Codable, Sendable {
        var kind: String
        /// Who shares an `equal` bill; every member when absent. The other kinds name members in their map.
        var among: [String]?
        var amounts: [String: Int]?
        /// Percent per member, up to two decimals (33.33).
        var percentages: [String: Double]?
        var shares: [String: Int]?
    }

    struct BillRequest: Decodable, Sendable {
        var description: String
        /// Minor units (cents) of `currency`.
        var amount: Int
        var currency: String
        var payerId: String?
        var split: SplitBody
    }

    struct BillView: ResponseEncodable, Sendable {
        var id: String
        var description: String
        var amount: Int
        var currency: String
        var payerId: String
        var split: String
        var shares: [String: Int]
        /// Set when the bill is the cost of a shopping trip (then it changes only through the trip).
        var tripId: String?
        var createdAt: Date
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<BillView> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: BillRequest.self, context: context)
        let key = request.headers[HTTPField.Name("Idempotency-Key")!].map { String($0.prefix(100)) }
        let (_, members) = try await database.household(id: householdID, asMember: context.user.userID)
        let now = clock.now
        let id = UUID().uuidString.lowercased()
        let (bill, shares) = try Self.bill(
            input, id: id, householdID: householdID, by: context.user.userID,
            members: members.map(\.userId), key: key, now: now)
        let (stored, storedShares, created) = try await database.createBill(bill, shares: shares)
        if created {
            let others = shares.keys.filter { $0 != context.user.userID }
            if !others.isEmpty {
                await events.publish(
                    Notice(
                        recipients: Array(others), kind: "household.bill_added",
                        text: "New shared bill: \(bill.description)",
                        link: HouseholdPaths.households + "/" + householdID + "/bills/" + id))
            }
        }
        return EditedResponse(status: created ? .created : .ok, response: Self.view(stored, storedShares))
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<BillView> {
        let page = try request.pageRequest()
        let rows = try await database.bills(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            after: try page.decodeCursor(as: [String].self), limit: page.limit + 1)
        return Page(fetched: rows.map { Self.view($0.0, $0.1) }, limit: page.limit) {
            [String($0.createdAt.timeIntervalSince1970), $0.id]
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> BillView {
        let (bill, shares) = try await database.bill(
            try context.parameters.require("bill"), in: try context.parameters.require("household"),
            asMember: context.user.userID)
        return Self.view(bill, shares)
    }

    /// Replaces a bill (any member may correct it); balances follow at once.
    @Sendable func replace(_ request: Request, context: AuthenticatedContext) async throws -> BillView {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: BillRequest.self, context: context)
        let (existing, _) = try await database.bill(
            try context.parameters.require("bill"), in: householdID, asMember: context.user.userID)
        let (_, members) = try await database.household(id: householdID, asMember: context.user.userID)
        var (bill, shares) = try Self.bill(
            input, id: existing.id, householdID: householdID, by: existing.createdBy,
            members: members.map(\.userId), key: existing.idempotencyKey, now: clock.now)
        bill.createdAt = existing.createdAt
        try await database.updateBill(bill, shares: shares, by: context.user.userID)
        return Self.view(bill, shares)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deleteBill(
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
        let (members, net) = try await database.balances(
            of: try context.parameters.require("household"), asMember: me)
        return Balances(
            currencies: net.keys.sorted().map { currency in
                let balances = net[currency] ?? [:]
                let plan = SettleUp.plan(balances)
                let everyone = members + balances.keys.filter { !members.contains($0) }.sorted()
                return CurrencyBalances(
                    currency: currency, members: everyone.map { .init(userId: $0, net: balances[$0] ?? 0) }, plan: plan,
                    mine: .init(
                        net: balances[me] ?? 0, owes: plan.filter { $0.from == me }, owed: plan.filter { $0.to == me }))
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
        guard input.amount > 0, input.amount <= 100_000_000 else {
            throw Problem.invalidField("amount", "must be a positive amount in minor units.")
        }
        guard input.to != context.user.userID else { throw Problem.invalidField("to", "must be another member.") }
        let payment = PaymentRow(
            id: UUID().uuidString.lowercased(), householdId: householdID, fromId: context.user.userID, toId: input.to,
            amount: input.amount, currency: try Self.currency(input.currency), createdAt: clock.now)
        try await database.recordPayment(payment)
        await events.publish(
            Notice(
                recipients: [input.to], kind: "household.payment", text: "A roommate paid you.",
                link: HouseholdPaths.households + "/" + householdID + "/balances"))
        return EditedResponse(
            status: .created, response: Transfer(from: payment.fromId, to: payment.toId, amount: payment.amount))
    }

    /// Checks a bill request and divides it.
    static func bill(
        _ input: BillRequest, id: String, householdID: String, by userID: String, members: [String], key: String?,
        now: Date
    ) throws -> (BillRow, [String: Int]) {
        let description = try Validate.text(input.description, field: "description", max: 100)
        guard input.amount > 0, input.amount <= 100_000_000 else {
            throw Problem.invalidField("amount", "must be a positive amount in minor units, at most 1,000,000.00.")
        }
        let payer = input.payerId ?? userID
        let split = input.split
        let (rule, participants): (SplitRule, [String])
        switch split.kind {
        case "equal":
            (rule, participants) = (.equal, split.among ?? members)
        case "exact":
            (rule, participants) = (.exact(split.amounts ?? [:]), (split.amounts ?? [:]).keys.sorted())
        case "shares":
            (rule, participants) = (.shares(split.shares ?? [:]), (split.shares ?? [:]).keys.sorted())
        case "percentages":
            let percentages = split.percentages ?? [:]
            guard
                // Bounded before the conversion to basis points: Int(1e300) traps.
                percentages.values.allSatisfy({
                    (0...100).contains($0) && abs(($0 * 100).rounded() - $0 * 100) < 1e-6
                })
            else {
                throw Problem.invalidField(
                    "split.percentages", "must be percents from 0 to 100 with at most two decimals.")
            }
            (rule, participants) = (
                .percentages(percentages.mapValues { Int(($0 * 100).rounded()) }), percentages.keys.sorted()
            )
        default:
            throw Problem.invalidField("split.kind", "must be equal, exact, percentages or shares.")
        }
        let shares = try Splitter.split(total: input.amount, among: participants, rule: rule, seed: id)
        let bill = BillRow(
            id: id, householdId: householdID, description: description, amount: input.amount,
            currency: try currency(input.currency), payerId: payer, splitKind: input.split.kind, createdBy: userID,
            idempotencyKey: key, createdAt: now, updatedAt: now)
        return (bill, shares)
    }

    static func currency(_ code: String) throws -> String {
        let code = code.uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }),
            Locale.commonISOCurrencyCodes.isEmpty || Locale.commonISOCurrencyCodes.contains(code)
        else { throw Problem.invalidField("currency", "must be an ISO 4217 code such as EUR.") }
        return code
    }

    static func view(_ bill: BillRow, _ shares: [String: Int]) -> BillView {
        BillView(
            id: bill.id, description: bill.description, amount: bill.amount, currency: bill.currency,
            payerId: bill.payerId,
            split: bill.splitKind, shares: shares, tripId: bill.tripId, createdAt: bill.createdAt)
    }

    // MARK: The bill's image

    /// Attaches an image (the raw JPEG, PNG or WebP body, at most 2 MiB), replacing any earlier one.
    @Sendable func uploadImage(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let body = try await request.body.collect(upTo: NotesController.maximumPhotoBytes)
        let kind = try ImageKind.validate(body.readableBytesView, maximumBytes: NotesController.maximumPhotoBytes)
        let bytes = Data(body.readableBytesView)
        try await database.setImage(
            of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
            by: context.user.userID, bytes: bytes, type: kind.mediaType, etag: NotesController.etag(of: bytes),
            now: clock.now)
        return .noContent
    }

    @Sendable func image(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let image = try await database.image(
                of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
                asMember: context.user.userID)
        else { throw Problem.notFound("The image") }
        return NotesController.imageResponse(image, for: request)
    }

    @Sendable func deleteImage(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        guard
            try await database.deleteImage(
                of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
                by: context.user.userID)
        else { throw Problem.notFound("The image") }
        return .noContent
    }

}

extension Transfer: ResponseGenerator, ResponseEncodable {}
