import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Shopping trips: completing one turns bought items into an expense; history; edits; the receipt photo (the trip
/// under way is ``ShoppingController``'s).
struct TripsController {
    let store: any HouseholdStore
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let trips = HouseholdPaths.households + "/:household/trips"
        router.post(RouterPath(trips), use: complete)
        router.get(RouterPath(trips), use: list)
        router.get(RouterPath(trips + "/:trip"), use: show)
        router.put(RouterPath(trips + "/:trip"), use: edit)
        router.put(RouterPath(trips + "/:trip/receipt"), use: uploadReceipt)
        router.get(RouterPath(trips + "/:trip/receipt"), use: receipt)
    }

    struct TripView: ResponseEncodable, Sendable {
        var id: String
        var shopperId: String
        var total: Int
        var currency: String
        /// The bill that carries the trip's cost into the balances.
        var billId: String
        var items: [TripLine]
        /// Each member's part of the total.
        var shares: [String: Int]
        var hasReceipt: Bool
        var createdAt: Date
        var updatedAt: Date

        init(_ stored: StoredTrip) {
            let trip = stored.trip
            (id, shopperId, total, currency, billId) = (trip.id, trip.shopperId, trip.total, trip.currency, trip.billId)
            (items, shares, hasReceipt) = (stored.lines, stored.shares, trip.receiptEtag != nil)
            (createdAt, updatedAt) = (trip.createdAt, trip.updatedAt)
        }
    }

    struct Pick: Decodable {
        /// The item's name as on the household list (case and plural do not matter).
        var name: String
        var price: Int?
    }

    struct CompleteRequest: Decodable {
        /// What the shopper paid, in minor units of `currency`.
        var total: Int
        var currency: String
        /// What was bought; without it, the items ticked off in my trip under way.
        var items: [Pick]?
    }

    @Sendable func complete(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<TripView>
    {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: CompleteRequest.self, context: context)
        let key = try IdempotencyKey.of(request)
        let picks = try input.items.map { try TripLimits.picks($0.map { ($0.name, $0.price) }) }
        let me = context.user.userID
        let (stored, _, created) = try await store.completeTrip(
            id: UUID().uuidString.lowercased(), in: householdID, by: me, total: input.total,
            currency: try Money.currency(input.currency), picks: picks, idempotencyKey: key, now: clock.now,
            notices: ChangeNotices(sink: notices) { stored, members, created in
                guard created else { return [] }
                return Self.told(
                    members, but: me, kind: "household.trip_completed",
                    text: "Shopping is done: \(stored.lines.count) items bought for the household.", stored)
            })
        return EditedResponse(status: created ? .created : .ok, response: TripView(stored))
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<TripView> {
        let page = try request.pageRequest()
        let rows = try await store.trips(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            after: try HouseholdInput.newestFirstCursor(page), limit: page.limit + 1)
        return Page(fetched: rows.map(TripView.init), limit: page.limit) {
            [String($0.createdAt.timeIntervalSince1970), $0.id]
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> TripView {
        TripView(
            try await store.trip(
                try context.parameters.require("trip"), in: try context.parameters.require("household"),
                asMember: context.user.userID))
    }

    struct LineBody: Decodable {
        var name: String
        var price: Int?
        var communalQuantity: Int?
        var wantedBy: [String: Int]?
    }

    struct EditRequest: Decodable {
        var total: Int?
        var currency: String?
        /// The trip's items after the edit: remove, add or revise any.
        var items: [LineBody]
    }

    /// Revises a completed trip (its shopper only); the expense is recomputed and everyone is told.
    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> TripView {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: EditRequest.self, context: context)
        try TripLimits.checkEditedItems(count: input.items.count)
        let lines = try input.items.map { line in
            TripLine(
                name: try HouseholdInput.groceryName(line.name), price: line.price,
                communalQuantity: line.communalQuantity ?? 0, wantedBy: line.wantedBy ?? [:])
        }
        let me = context.user.userID
        let (stored, _) = try await store.editTrip(
            try context.parameters.require("trip"), in: householdID, by: me, total: input.total,
            currency: try input.currency.map { try Money.currency($0) }, lines: lines, now: clock.now,
            notices: ChangeNotices(sink: notices) { stored, members in
                Self.told(
                    members, but: me, kind: "household.trip_edited",
                    text: "A shopping trip was revised; balances are updated.", stored)
            })
        return TripView(stored)
    }

    /// Attaches the receipt (the raw JPEG, PNG or WebP body, at most 4 MiB), recognised by its magic bytes.
    @Sendable func uploadReceipt(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status
    {
        let receipt = try await HouseholdInput.image(request, maximumBytes: HouseholdInput.maximumReceiptBytes)
        try await store.setReceipt(
            of: try context.parameters.require("trip"), in: try context.parameters.require("household"),
            by: context.user.userID, receipt)
        return .noContent
    }

    @Sendable func receipt(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let receipt = try await store.receipt(
                of: try context.parameters.require("trip"), in: try context.parameters.require("household"),
                asMember: context.user.userID)
        else { throw HouseholdError.notFound("The receipt") }
        return receipt.response(to: request)
    }

    /// The trip's notice to the members but `me`.
    static func told(_ members: [String], but me: String, kind: String, text: String, _ stored: StoredTrip)
        -> [Notice]
    {
        let others = LiveUpdates.others(members, than: me)
        guard !others.isEmpty else { return [] }
        return [
            Notice(
                recipients: others, kind: kind, text: text,
                link: HouseholdPaths.households + "/" + stored.trip.householdId + "/trips/" + stored.trip.id,
                idempotencyKey: "\(kind):\(stored.trip.id):\(stored.trip.updatedAt.timeIntervalSince1970)")
        ]
    }
}
