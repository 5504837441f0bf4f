import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// With the outbox as the notice sink, every household change writes its notices and live events in its own
/// transaction, on both engines, built by the controllers' own builders from what the store stored and the members it
/// read: they commit with the change, and a refused change writes none.
extension HouseholdStoreTests {
    /// The live updates of a sink appending to the store's outbox, and that outbox.
    func outboxLive(_ store: any HouseholdStore) throws -> (LiveUpdates, any OutboxStorage) {
        let outbox = try #require(store.outbox)
        return (LiveUpdates(sink: OutboxNoticeSink.undelivered(outbox, producer: .household)), outbox)
    }

    func item(_ id: String, owner: String?, by userID: String) -> GroceryItemRecord {
        GroceryItemRecord(
            id: id, householdId: "h", ownerId: owner, name: "Milk", mergeKey: "milk", quantity: 1, note: nil,
            visible: true, createdBy: userID, createdAt: now)
    }

    @Test(arguments: StoreKind.allCases) func aGroceryChangesEventsAreWrittenWithIt(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            // given ann and bob's household
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            let (live, outbox) = try outboxLive(store)
            func added(by actor: String) -> ChangeNotices<HouseholdChange<GroceryItemRecord>> {
                live.reporting(events: {
                    GroceriesController.changed("household.grocery.created", $0.value, $0, by: actor)
                })
            }
            func edited(by actor: String) -> ChangeNotices<HouseholdChange<GroceryEdit>> {
                live.reporting(events: { GroceriesController.edited($0, by: actor) })
            }
            // when cat (no member) adds an item, ann adds a personal one, bob tries to hide it, ann hides it and
            // deletes it
            await #expect(throws: HouseholdError.notFound("The household")) {
                try await store.addGrocery(item("g0", owner: nil, by: "cat"), notices: added(by: "cat"))
            }
            try await store.addGrocery(item("g1", owner: "ann", by: "ann"), notices: added(by: "ann"))
            await #expect(throws: HouseholdError.notItemOwner) {
                _ = try await store.changeGrocery("g1", in: "h", by: "bob", notices: edited(by: "bob")) {
                    $0.visible = false
                }
            }
            _ = try await store.changeGrocery("g1", in: "h", by: "ann", notices: edited(by: "ann")) {
                $0.visible = false
            }
            try await store.deleteGrocery(
                "g1", in: "h", by: "ann",
                notices: live.reporting(events: { change in
                    LiveUpdates.event(
                        "household.grocery.deleted", .init(householdId: "h", actorId: "ann", id: change.value.id),
                        to: .actor, members: change.members)
                }))
            // then the item's events wait in order: everyone's list gains it, bob's loses it as it is hidden, ann's
            // follows the edit, and ann's loses it
            #expect(
                try await outbox.waitingPosts() == [
                    PostedEntry(recipientIds: ["ann", "bob"], type: "household.grocery.created"),
                    PostedEntry(recipientIds: ["bob"], type: "household.grocery.deleted"),
                    PostedEntry(recipientIds: ["ann"], type: "household.grocery.updated"),
                    PostedEntry(recipientIds: ["ann"], type: "household.grocery.deleted"),
                ])
        }
    }

    @Test(arguments: StoreKind.allCases) func aCompletionsNoticeAndEventAreWrittenWithIt(kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withHouseholdStores(kind) { stores in
            // given ann and bob's household and a one-off chore
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: clock.now)
            let (live, outbox) = try outboxLive(store)
            _ = try await store.createChore(
                in: "h", by: "ann", clock: clock.wallClock,
                notices: live.reporting(events: { ChoresController.saved("household.chore.created", $0, by: "ann") })
            ) { _, today in
                var chore = ChoreRecord(
                    id: "c", householdId: "h", name: "Bins", points: 1, scheduleKind: "once",
                    assignmentKind: "leastPoints", nextDue: today.description, createdAt: clock.now)
                chore.set(.once)
                return chore
            }
            let completed = { (actor: String) in
                live.reporting(
                    notices: { CompletionsController.completedNotices($0, by: actor) },
                    events: { CompletionsController.completedEvents($0, by: actor) })
            }
            // when cat (no member) completes it, bob completes it, and bob completes it again (it is done)
            await #expect(throws: HouseholdError.notFound("The household")) {
                _ = try await store.complete(
                    "c", in: "h", by: "cat", note: nil, clock: clock.wallClock, notices: completed("cat"))
            }
            _ = try await store.complete(
                "c", in: "h", by: "bob", note: nil, clock: clock.wallClock, notices: completed("bob"))
            await #expect(throws: HouseholdError.choreDone) {
                _ = try await store.complete(
                    "c", in: "h", by: "bob", note: nil, clock: clock.wallClock, notices: completed("bob"))
            }
            // then the chore's event, ann's notice and everyone's completion event wait, once
            #expect(
                try await outbox.waitingPosts() == [
                    PostedEntry(recipientIds: ["ann", "bob"], type: "household.chore.created"),
                    PostedEntry(recipientIds: ["ann"], kind: "household.chore_completed"),
                    PostedEntry(recipientIds: ["ann", "bob"], type: "household.chore.completed"),
                ])
        }
    }

    @Test(arguments: StoreKind.allCases) func anEventsNoticesAreWrittenWithIt(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            // given ann and bob's household
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            let (live, outbox) = try outboxLive(store)
            let told = { (actor: String, kind: String) in
                live.reporting(notices: { EventsController.told($0, but: actor, kind, "x") })
            }
            let draft = EventRules.Draft(
                title: "Party", note: nil, place: nil, start: now + 86_400, end: nil, remindMinutesBefore: 0)
            // when ann schedules an event, bob tries to cancel it, ann cancels it, and ann cancels it again
            _ = try await store.createEvent(
                draft, id: "e", in: "h", by: "ann", now: now, notices: told("ann", "household.event_created"))
            await #expect(throws: HouseholdError.notEventCreator(action: "cancel it")) {
                _ = try await store.cancelEvent(
                    "e", in: "h", by: "bob", now: now, notices: told("bob", "household.event_cancelled"))
            }
            _ = try await store.cancelEvent(
                "e", in: "h", by: "ann", now: now, notices: told("ann", "household.event_cancelled"))
            await #expect(throws: HouseholdError.eventCancelled) {
                _ = try await store.cancelEvent(
                    "e", in: "h", by: "ann", now: now, notices: told("ann", "household.event_cancelled"))
            }
            // then bob's two notices wait
            #expect(
                try await outbox.waitingPosts() == [
                    PostedEntry(recipientIds: ["bob"], kind: "household.event_created"),
                    PostedEntry(recipientIds: ["bob"], kind: "household.event_cancelled"),
                ])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func membershipAndPaymentNoticesAreWrittenWithTheirChange(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            // given ann and bob's household, where ann owes bob 50 of a bill bob paid
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            _ = try await store.createBill(
                equalBill(100, payer: "bob"), id: "b", in: "h", by: "bob", idempotencyKey: nil, now: now)
            let (live, outbox) = try outboxLive(store)
            let notice: @Sendable (String, [String]) -> Notice = { kind, to in
                Notice(recipients: to, kind: kind, text: "", link: "/")
            }
            let invited = ChangeNotices<HouseholdRecord>(sink: live.sink) { _ in
                [notice("household.invitation", ["cat"])]
            }
            let joined = ChangeNotices<Joined?>(sink: live.sink) { joined in
                joined.map { [notice("household.member_joined", $0.1.map(\.userId).filter { $0 != "cat" })] } ?? []
            }
            let left = ChangeNotices<[String]>(sink: live.sink) { [notice("household.member_left", $0)] }
            let paid = ChangeNotices<PaymentRecord>(sink: live.sink) { [notice("household.payment", [$0.toId])] }
            func invitation(_ id: String, by inviter: String) -> InvitationRecord {
                InvitationRecord(
                    id: id, householdId: "h", inviterId: inviter, inviteeId: "cat", status: "pending", createdAt: now)
            }
            func payment(_ amount: Int) -> PaymentRecord {
                PaymentRecord(
                    id: "p\(amount)", householdId: "h", fromId: "ann", toId: "bob", amount: amount, currency: "EUR",
                    createdAt: now)
            }
            // when dan (no member) invites cat, ann invites cat, cat accepts, bob tries to remove cat, cat leaves,
            // ann pays bob more than she owes, then what she owes
            await #expect(throws: HouseholdError.notFound("The household")) {
                try await store.invite(invitation("i0", by: "dan"), notices: invited)
            }
            try await store.invite(invitation("i1", by: "ann"), notices: invited)
            _ = try await store.respond(to: "i1", as: "cat", accept: true, now: now, notices: joined)
            await #expect(throws: HouseholdError.notHouseholdAdmin) {
                _ = try await store.removeMember("cat", from: "h", by: "bob", now: now, notices: left)
            }
            _ = try await store.removeMember("cat", from: "h", by: "cat", now: now, notices: left)
            await #expect(throws: HouseholdError.self) {
                try await store.recordPayment(payment(60), notices: paid)
            }
            try await store.recordPayment(payment(50), notices: paid)
            // then one notice waits for each change made
            #expect(
                try await outbox.waitingPosts() == [
                    PostedEntry(recipientIds: ["cat"], kind: "household.invitation"),
                    PostedEntry(recipientIds: ["ann", "bob"], kind: "household.member_joined"),
                    PostedEntry(recipientIds: ["ann", "bob"], kind: "household.member_left"),
                    PostedEntry(recipientIds: ["bob"], kind: "household.payment"),
                ])
        }
    }
}
