import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// Everyone's open lists follow what another member changes: grocery, chore, note and shopping-trip changes are live
/// events, one per change, to every member (the actor's other devices too).
@Suite struct HouseholdLiveTests {
    typealias Item = HouseholdGroceryTests.Item

    /// The live events published since `start`, as (type, recipients, payload).
    static func events(_ world: HouseholdWorld, since start: Int) throws -> [(
        type: String, to: Set<String>, body: [String: Any]
    )] {
        try world.notices.live.dropFirst(start).map { event in
            (
                event.type, Set(event.recipients),
                try #require(try JSONSerialization.jsonObject(with: event.payload) as? [String: Any])
            )
        }
    }

    @Test func everyGroceryChoreAndNoteChangeIsOneLiveEventToEveryMember() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let everyone: Set = [world.ann.id, world.bob.id]
            let token = world.ann.accessToken
            let start = world.notices.live.count
            // groceries
            let apples = try await world.api.post(
                world.path(id, "/groceries"), token: token, json: Item(name: "Apples", communal: true))
            let appleID = try apples.decode(WireCreated.self).id
            #expect(
                try await world.api.patch(world.path(id, "/groceries/\(appleID)"), token: token, json: ["quantity": 3])
                    .status == 200)
            #expect(try await world.api.delete(world.path(id, "/groceries/\(appleID)"), token: token).status == 204)
            let hidden = try await world.api.post(
                world.path(id, "/groceries"), token: token, json: Item(name: "Gift", visible: false))
            #expect(hidden.status == 201)
            // chores
            let chore = try await world.api.post(world.path(id, "/chores"), token: token, json: ["name": "Dishes"])
            let choreID = try chore.decode(WireChore.self).id
            #expect(
                try await world.api.patch(world.path(id, "/chores/\(choreID)"), token: token, json: ["points": 3])
                    .status == 200)
            #expect(
                try await world.api.post(
                    world.path(id, "/chores/\(choreID)/completions"), token: world.bob.accessToken,
                    json: [String: String]()
                ).status == 201)
            #expect(try await world.api.delete(world.path(id, "/chores/\(choreID)"), token: token).status == 204)
            // notes
            let note = try await world.api.post(
                world.path(id, "/notes"), token: token, json: NoteBody(text: "Party on Friday"))
            let noteID = try note.decode(WireNote.self).id
            #expect(
                try await world.api.patch(
                    world.path(id, "/notes/\(noteID)"), token: token, json: ["text": "Party on Saturday"]
                ).status == 200)
            #expect(
                try await world.api.send(
                    .PUT, world.path(id, "/notes/\(noteID)/pin"), token: token, json: ["pinned": true]
                ).status == 200)
            #expect(
                try await world.api.put(world.path(id, "/notes/\(noteID)/photo"), token: token, body: TestImages.png())
                    .status == 204)
            #expect(try await world.api.delete(world.path(id, "/notes/\(noteID)"), token: token).status == 204)
            // a refused change publishes nothing
            #expect(try await world.api.delete(world.path(id, "/notes/\(noteID)"), token: token).status == 404)

            let events = try Self.events(world, since: start)
            #expect(
                events.map(\.type) == [
                    "household.grocery.created", "household.grocery.updated", "household.grocery.deleted",
                    "household.grocery.created",
                    "household.chore.created", "household.chore.updated", "household.chore.completed",
                    "household.chore.deleted",
                    "household.note.created", "household.note.updated", "household.note.updated",
                    "household.note.updated", "household.note.deleted",
                ])
            // a personal item kept off the household list tells only its owner; everything else tells everyone
            #expect(events[3].to == [world.ann.id])
            #expect(events.enumerated().allSatisfy { $0.offset == 3 || $0.element.to == everyone })
            #expect(events.allSatisfy { $0.body["householdId"] as? String == id })
            #expect((events[1].body["item"] as? [String: Any])?["quantity"] as? Int == 3)
            #expect(events[2].body["id"] as? String == appleID && events[2].body["item"] == nil)
            #expect(events[6].body["actorId"] as? String == world.bob.id && events[6].body["completion"] != nil)
            #expect((events[9].body["note"] as? [String: Any])?["text"] as? String == "Party on Saturday")
            #expect((events[11].body["note"] as? [String: Any])?["photoUrl"] != nil)
            // each event has its own key, so a retried post of one cannot duplicate it and two changes never merge
            let keys = world.notices.live.dropFirst(start).map(\.idempotencyKey)
            #expect(Set(keys).count == keys.count)
        }
    }

    /// Hiding a personal item takes it off everyone else's open list at once (an event that removes it), while the
    /// owner's devices get the update; showing it again brings it back; deleting a shown item removes it for all.
    @Test func aHiddenOrDeletedItemLeavesEveryOtherMembersOpenList() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let token = world.ann.accessToken
            let others: Set = [world.bob.id, world.cat.id]
            let cake = try await world.api.post(world.path(id, "/groceries"), token: token, json: Item(name: "Cake"))
            let cakeID = try cake.decode(WireCreated.self).id
            let start = world.notices.live.count
            #expect(
                try await world.api.patch(
                    world.path(id, "/groceries/\(cakeID)"), token: token, json: ["visible": false]
                )
                .status == 200)
            let hidden = try Self.events(world, since: start)
            #expect(hidden.map(\.type) == ["household.grocery.deleted", "household.grocery.updated"])
            #expect(
                hidden[0].to == others && hidden[0].body["id"] as? String == cakeID && hidden[0].body["item"] == nil)
            #expect(hidden[1].to == [world.ann.id])
            #expect((hidden[1].body["item"] as? [String: Any])?["visible"] as? Bool == false)
            // editing it while hidden still tells only its owner
            let whileHidden = world.notices.live.count
            #expect(
                try await world.api.patch(world.path(id, "/groceries/\(cakeID)"), token: token, json: ["quantity": 2])
                    .status == 200)
            #expect(try Self.events(world, since: whileHidden).map(\.to) == [[world.ann.id]])
            // shown again, it comes back to every list with its contents
            let shown = world.notices.live.count
            #expect(
                try await world.api.patch(world.path(id, "/groceries/\(cakeID)"), token: token, json: ["visible": true])
                    .status == 200)
            let back = try Self.events(world, since: shown)
            #expect(back.map(\.type) == ["household.grocery.updated"])
            #expect(back[0].to == others.union([world.ann.id]) && back[0].body["item"] != nil)
            // deleted while shown, it leaves every list
            let deleted = world.notices.live.count
            #expect(try await world.api.delete(world.path(id, "/groceries/\(cakeID)"), token: token).status == 204)
            let gone = try Self.events(world, since: deleted)
            #expect(gone.map(\.type) == ["household.grocery.deleted"] && gone[0].to == others.union([world.ann.id]))
        }
    }

    @Test func aNoteMayBeAPhotoAloneAndOnlyItsAuthorEditsIt() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let token = world.ann.accessToken
            // a photo alone, for an hour
            let photoNote = try await world.api.send(
                .POST, world.path(id, "/notes/photo?expiresInHours=1"), token: token, body: TestImages.jpeg())
            #expect(photoNote.status == 201, "\(photoNote.text)")
            let posted = try photoNote.decode(WireNote.self)
            #expect(posted.text == "" && posted.photoUrl != nil)
            #expect(posted.expiresAt.timeIntervalSince(posted.createdAt) == 3_600)
            let photo = try await world.api.get(try #require(posted.photoUrl), token: world.bob.accessToken)
            #expect(photo.body == TestImages.jpeg())
            // the board shows it to the others
            let board = try await world.api.get(world.path(id, "/notes"), token: world.bob.accessToken)
            #expect(try board.decode(WireItems<WireNote>.self).items.map(\.id) == [posted.id])
            // refused: no image, a bad timer, a timer beyond 90 days
            #expect(
                try await world.api.send(.POST, world.path(id, "/notes/photo"), token: token, body: Data()).status
                    == 400)
            let badTimer = try await world.api.send(
                .POST, world.path(id, "/notes/photo?expiresInHours=soon"), token: token, body: TestImages.png())
            #expect(badTimer.problem?.errors?.map(\.field) == ["expiresInHours"])
            let tooLong = try await world.api.send(
                .POST, world.path(id, "/notes/photo?expiresInHours=2161"), token: token, body: TestImages.png())
            #expect(tooLong.status == 400 && tooLong.problem?.errors?.map(\.field) == ["expiresInHours"])
            // its author adds a caption and a new timer; nobody else edits it
            let path = world.path(id, "/notes/\(posted.id)")
            #expect(
                try await world.api.patch(path, token: world.bob.accessToken, json: ["text": "mine now"]).status == 403)
            let edited = try await world.api.patch(
                path, token: token, json: ["text": "The new sofa", "expiresInHours": "2"])
            #expect(edited.status == 400, "hours are a number")
            let captioned = try await world.api.patch(
                path, token: token, json: EditNote(text: "The new sofa", expiresInHours: 2))
            #expect(captioned.status == 200, "\(captioned.text)")
            let note = try captioned.decode(WireNote.self)
            #expect(note.text == "The new sofa")
            #expect(note.expiresAt == posted.createdAt.addingTimeInterval(7_200))
            // a photo note may lose its caption again; a text note may not lose its text
            #expect(try await world.api.patch(path, token: token, json: ["text": ""]).status == 200)
            let textNote = try await world.api.post(
                world.path(id, "/notes"), token: token, json: NoteBody(text: "Rent"))
            let blank = try await world.api.patch(
                world.path(id, "/notes/\(try textNote.decode(WireNote.self).id)"), token: token, json: ["text": ""])
            #expect(blank.status == 400 && blank.problem?.errors?.map(\.field) == ["text"])
            // two hours later the photo note is gone from the board
            try await world.advance(days: 2.0 / 24.0 + 0.001)
            let later = try await world.api.get(world.path(id, "/notes"), token: world.token(world.bob))
            #expect(try later.decode(WireItems<WireNote>.self).items.map(\.text) == ["Rent"])
        }
    }

    struct EditNote: Encodable, Sendable {
        var text: String?
        var expiresInHours: Int?
    }

    struct Check: Encodable, Sendable {
        var checked: Bool
        var price: Int? = nil
    }

    @Test func theShopperTicksItemsOffWhileTheOthersWatchThenCompletesTheTrip() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.household(world.cat)
            let add = { (user: TestUser, item: Item) in
                try await world.api.post(world.path(id, "/groceries"), token: user.accessToken, json: item)
                    .decode(WireCreated.self).id
            }
            let apples = try await add(world.ann, Item(name: "Apples", communal: true))
            let milk = try await add(world.bob, Item(name: "Milk"))
            let secret = try await add(world.bob, Item(name: "Surprise cake", visible: false))
            let tick = { (user: TestUser, item: String, check: Check) in
                try await world.api.send(
                    .PUT, world.path(id, "/trips/current/items/\(item)"), token: user.accessToken, json: check)
            }
            // nothing to tick before the trip starts
            let early = try await tick(world.ann, apples, Check(checked: true))
            #expect(early.status == 409 && early.problem?.code == "not_shopping")
            #expect(
                try await world.api.get(world.path(id, "/trips/current"), token: world.ann.accessToken).status == 404)
            // going shopping starts the trip and tells bob once
            let started = try await world.api.post(world.path(id, "/shopping"), token: world.ann.accessToken)
            #expect(try started.decode(WireShoppingStarted.self).notified == [world.bob.id])
            let again = try await world.api.post(world.path(id, "/shopping"), token: world.ann.accessToken)
            #expect(try again.decode(WireShoppingStarted.self).notified == [])
            #expect(world.notices.kinds.filter { $0 == "household.shopping_started" }.count == 1)
            // ticking: what bob hides is not ann's to tick, another household reaches nothing
            let start = world.notices.live.count
            #expect(try await tick(world.ann, apples, Check(checked: true, price: 300)).status == 200)
            #expect(try await tick(world.ann, milk, Check(checked: true)).status == 200)
            #expect(try await tick(world.ann, milk, Check(checked: false)).status == 200)
            #expect(try await tick(world.ann, milk, Check(checked: true, price: 150)).status == 200)
            #expect(try await tick(world.ann, secret, Check(checked: true)).status == 404)
            #expect(try await tick(world.cat, apples, Check(checked: true)).status == 404)
            #expect(
                try await tick(world.ann, apples, Check(checked: true, price: -1)).problem?.errors?.map(\.field) == [
                    "price"
                ])
            // bob sees each tick live
            let events = try Self.events(world, since: start)
            #expect(
                events.map(\.type) == [
                    "household.trip.item_checked", "household.trip.item_checked", "household.trip.item_unchecked",
                    "household.trip.item_checked",
                ])
            #expect(events.allSatisfy { $0.to == [world.ann.id, world.bob.id] })
            #expect((events[0].body["tripItem"] as? [String: Any])?["price"] as? Int == 300)
            let current = try await world.api.get(world.path(id, "/trips/current"), token: world.ann.accessToken)
            #expect(try current.decode(WireCurrentTrip.self).checked.map(\.name) == ["Apples", "Milk"])
            // completing without a list buys what was ticked, and ends the trip
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken, json: ["total": "450", "currency": "EUR"])
            #expect(trip.status == 400, "the total is a number")
            let done = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken, json: TripTotal(total: 450))
            #expect(done.status == 201, "\(done.text)")
            let bought = try done.decode(WireTrip.self)
            #expect(bought.items.map(\.name).sorted() == ["Apples", "Milk"])
            #expect(bought.shares == [world.ann.id: 150, world.bob.id: 300])
            #expect(
                try await world.api.get(world.path(id, "/trips/current"), token: world.ann.accessToken).status == 404)
            let list = try await world.api.get(world.path(id, "/groceries/personal"), token: world.bob.accessToken)
            #expect(try list.decode(WireItems<WireGroceryItem>.self).items.map(\.name) == ["Surprise cake"])
            // a trip with nothing ticked and no list is refused, naming the field
            _ = try await world.api.post(world.path(id, "/shopping"), token: world.ann.accessToken)
            let empty = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken, json: TripTotal(total: 100))
            #expect(empty.status == 400 && empty.problem?.errors?.map(\.field) == ["items"])
        }
    }

    struct TripTotal: Encodable, Sendable {
        var total: Int
        var currency = "EUR"
    }
}

/// `POST .../shopping`'s answer.
struct WireShoppingStarted: Decodable, Sendable {
    var notified: [String]
    var startedAt: Date
}

/// `GET .../trips/current`.
struct WireCurrentTrip: Decodable, Sendable {
    struct Checked: Decodable, Sendable {
        var itemId: String
        var name: String
        var price: Int?
        var checked: Bool
    }
    var shopperId: String
    var startedAt: Date
    var checked: [Checked]
}
