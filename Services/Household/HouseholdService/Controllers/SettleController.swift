import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Getting paid: reminders to members who owe me (one per debtor per 24 hours), members' Venmo and PayPal
/// handles, and deep links that open a payment app for a settle-up payment.
struct SettleController {
    let store: any HouseholdStore
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let household = HouseholdPaths.households + "/:household"
        router.post(RouterPath(household + "/reminders"), use: remind)
        router.post(RouterPath(household + "/reminders/all"), use: remindAll)
        router.get(RouterPath(household + "/payment-handles"), use: handles)
        router.put(RouterPath(household + "/payment-handles"), use: setHandles)
        router.get(RouterPath(household + "/payment-link"), use: link)
    }

    struct RemindRequest: Decodable {
        /// The member who owes me.
        var to: String
    }

    struct Reminded: ResponseEncodable {
        struct Debt: Encodable {
            var userId: String
            /// Currency -> amount owed to me, minor units.
            var owes: [String: Int]
        }
        struct Skipped: Encodable {
            var userId: String
            /// When this member may be reminded again.
            var retryAt: Date
        }
        var reminded: [Debt]
        var skipped: [Skipped]
    }

    /// Reminds one member who owes me; 429 if I reminded them less than 24 hours ago.
    @Sendable func remind(_ request: Request, context: AuthenticatedContext) async throws -> Reminded {
        let input = try await request.decode(as: RemindRequest.self, context: context)
        return try await send(to: [input.to], context: context)
    }

    /// Reminds every member who owes me, except those reminded in the last 24 hours.
    @Sendable func remindAll(_ request: Request, context: AuthenticatedContext) async throws -> Reminded {
        try await send(to: nil, context: context)
    }

    private func send(to debtors: [String]?, context: AuthenticatedContext) async throws -> Reminded {
        let householdID = try context.parameters.require("household")
        let now = clock.now
        let me = context.user.userID
        let (sent, tooSoon) = try await store.remind(
            in: householdID, by: me, debtors: debtors, now: now, interval: Reminders.interval,
            notices: ChangeNotices(sink: notices) { reminded in
                reminded.sent.sorted(by: { $0.key < $1.key }).map { debtor, owes in
                    Notice(
                        recipients: [debtor], kind: "household.payment_reminder",
                        text: Reminders.fromCreditor(owes),
                        link: HouseholdPaths.households + "/" + householdID + "/balances",
                        idempotencyKey: "reminder:\(householdID):\(me):\(debtor):\(now.timeIntervalSince1970)")
                }
            })
        if sent.isEmpty, let next = tooSoon.values.min() { throw HouseholdError.reminderTooSoon(next: next, now: now) }
        return Reminded(
            reminded: sent.sorted { $0.key < $1.key }.map { .init(userId: $0.key, owes: $0.value) },
            skipped: tooSoon.sorted { $0.key < $1.key }.map { .init(userId: $0.key, retryAt: $0.value) })
    }

    struct Handles: Codable, ResponseEncodable {
        var userId: String?
        var venmo: String?
        var paypal: String?
    }

    @Sendable func handles(_ request: Request, context: AuthenticatedContext) async throws -> Page<Handles> {
        let rows = try await store.paymentHandles(
            in: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(of: rows.map { Handles(userId: $0.userID, venmo: $0.venmo, paypal: $0.paypal) })
    }

    /// Sets my Venmo and PayPal.Me handles (absent or empty removes one).
    @Sendable func setHandles(_ request: Request, context: AuthenticatedContext) async throws -> Handles {
        let input = try await request.decode(as: Handles.self, context: context)
        let venmo = try input.venmo.flatMap { $0.isEmpty ? nil : try PaymentLink.venmoHandle($0) }
        let paypal = try input.paypal.flatMap { $0.isEmpty ? nil : try PaymentLink.paypalHandle($0) }
        try await store.setPaymentHandles(
            of: context.user.userID, in: try context.parameters.require("household"), venmo: venmo, paypal: paypal,
            now: clock.now)
        return Handles(userId: context.user.userID, venmo: venmo, paypal: paypal)
    }

    struct LinkView: ResponseEncodable {
        var provider: PaymentLink.Provider
        var url: String
        var to: String
        var amount: Int
        var currency: String
    }

    /// `?to=<member>&provider=venmo|paypal&currency=USD[&amount=<minor units>]`: a deep link paying what
    /// the settle-up plan says I owe that member (or `amount`). Recording the payment stays a separate step.
    @Sendable func link(_ request: Request, context: AuthenticatedContext) async throws -> LinkView {
        let query = request.uri.queryParameters
        guard let payee = query["to"].map(String.init), !payee.isEmpty else {
            throw HouseholdError.invalidField("to", "must name the member to pay.")
        }
        guard let provider = query["provider"].flatMap({ PaymentLink.Provider(rawValue: String($0)) }) else {
            throw HouseholdError.invalidField("provider", "must be venmo or paypal.")
        }
        let currency = try Money.currency(query["currency"].map(String.init) ?? "")
        var amount: Int?
        if let text = query["amount"] {
            guard let value = Int(text), Money.isAmount(value) else {
                throw HouseholdError.invalidField("amount", "must be a positive amount in minor units.")
            }
            amount = value
        }
        let target = try await store.paymentTarget(
            in: try context.parameters.require("household"), from: context.user.userID, to: payee, currency: currency)
        guard let handle = provider == .venmo ? target.venmo : target.paypal else {
            throw HouseholdError.noPaymentHandle(provider: provider.rawValue)
        }
        let due = amount ?? target.owed
        guard due > 0 else { throw HouseholdError.nothingOwed(.toThatMember) }
        let url = try PaymentLink.url(
            provider, handle: handle, amount: due, currency: currency, note: "RooMate settle-up")
        return LinkView(provider: provider, url: url, to: payee, amount: due, currency: currency)
    }
}
