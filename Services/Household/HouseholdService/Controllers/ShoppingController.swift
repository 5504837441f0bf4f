import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The trip under way: "I'm going shopping" starts it, items are ticked off it; completing it is
/// ``TripsController``'s.
struct ShoppingController {
    let store: any HouseholdStore
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
        let me = context.user.userID
        let (trip, members, started) = try await store.startShopping(
            in: householdID, by: me, now: clock.now,
            notices: live.reporting(notices: { Self.startedNotices($0.value, householdID: householdID, by: me) }))
        return ShoppingStarted(
            notified: started ? LiveUpdates.others(members, than: me) : [], startedAt: trip.startedAt)
    }

    /// Everyone else is told when my trip starts; nobody twice while it is under way.
    static func startedNotices(_ start: ShoppingStart, householdID: String, by actorID: String) -> [Notice] {
        let others = start.started ? LiveUpdates.others(start.members, than: actorID) : []
        guard !others.isEmpty else { return [] }
        return [
            Notice(
                recipients: others, kind: "household.shopping_started",
                text: "A roommate is going shopping: add what you need to the list now.",
                link: HouseholdPaths.households + "/" + householdID + "/groceries")
        ]
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
        let (me, checked) = (context.user.userID, input.checked)
        let (item, _) = try await store.check(
            try context.parameters.require("item"), in: householdID, by: me,
            checked: input.checked, price: input.price, now: clock.now,
            notices: live.reporting(events: { change in
                LiveUpdates.event(
                    checked ? "household.trip.item_checked" : "household.trip.item_unchecked",
                    .init(
                        householdId: householdID, actorId: me, id: change.value.itemId,
                        tripItem: CheckedItemView(change.value, checked: checked)),
                    members: change.members)
            }))
        return CheckedItemView(item, checked: input.checked)
    }
}
