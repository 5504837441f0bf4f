import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The trip under way: "I'm going shopping" starts it, items are ticked off it; completing it is
/// ``TripsController``'s.
struct ShoppingController {
    let store: any HouseholdStore
    let notices: any NoticeSink
    let live: LiveUpdates
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let trips = HouseholdPaths.households + "/:household/trips"
        router.post(RouterPath(HouseholdPaths.households + "/:household/shopping"), use: goShopping)
        router.get(RouterPath(trips + "/current"), use: current)
        router.put(RouterPath(trips + "/current/items/:item"), use: check)
    }

    struct ShoppingStarted: ResponseEncodable {
        /// Who was told (nobody when my trip was already under way).
        var notified: [String]
        /// When my trip under way started; items are ticked off it at `.../trips/current/items/{id}`.
        var startedAt: Date
    }

    /// Starts my trip and tells everyone else I am going shopping, so they can add or remove items while there is
    /// time; tapping again while the trip is under way tells nobody twice.
    @Sendable func goShopping(_ request: Request, context: AuthenticatedContext) async throws -> ShoppingStarted {
        let householdID = try context.parameters.require("household")
        let (trip, members, started) = try await store.startShopping(
            in: householdID, by: context.user.userID, now: clock.now)
        let others = started ? members.filter { $0 != context.user.userID } : []
        if !others.isEmpty {
            await notices.publish(
                Notice(
                    recipients: others, kind: "household.shopping_started",
                    text: "A roommate is going shopping: add what you need to the list now.",
                    link: HouseholdPaths.households + "/" + householdID + "/groceries"))
        }
        return ShoppingStarted(notified: others, startedAt: trip.startedAt)
    }

    struct CheckedItemView: ResponseEncodable, Sendable {
        /// The grocery item ticked (any item of its household-list line).
        var itemId: String
        var name: String
        var price: Int?
        var checked: Bool
        var checkedAt: Date

        init(_ item: CheckedItem, checked: Bool = true) {
            (itemId, name, price, self.checked, checkedAt) = (
                item.itemId, item.name, item.price, checked, item.checkedAt
            )
        }
    }

    struct CurrentTripView: ResponseEncodable, Sendable {
        var shopperId: String
        var startedAt: Date
        var checked: [CheckedItemView]

        init(_ trip: CurrentTrip) {
            (shopperId, startedAt, checked) = (trip.shopperId, trip.startedAt, trip.checked.map { CheckedItemView($0) })
        }
    }

    /// My trip under way (`POST .../shopping` starts it; completing a trip ends it).
    @Sendable func current(_ request: Request, context: AuthenticatedContext) async throws -> CurrentTripView {
        guard
            let trip = try await store.currentTrip(
                in: try context.parameters.require("household"), of: context.user.userID)
        else { throw HouseholdError.notFound("A trip under way") }
        return CurrentTripView(trip)
    }

    struct CheckRequest: Decodable {
        var checked: Bool
        /// What the line cost, in minor units, if the shopper enters it while shopping.
        var price: Int?
    }

    /// Ticks an item of the household list off my trip under way (or unticks it); everyone's open list follows.
    @Sendable func check(_ request: Request, context: AuthenticatedContext) async throws -> CheckedItemView {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: CheckRequest.self, context: context)
        try TripLimits.checkPrice(input.price)
        let (item, _) = try await store.check(
            try context.parameters.require("item"), in: householdID, by: context.user.userID,
            checked: input.checked, price: input.price, now: clock.now)
        let view = CheckedItemView(item, checked: input.checked)
        await live.publish(
            input.checked ? "household.trip.item_checked" : "household.trip.item_unchecked",
            .init(householdId: householdID, actorId: context.user.userID, id: item.itemId, tripItem: view))
        return view
    }
}
