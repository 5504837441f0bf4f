import Foundation
import PlatformClient
import TestSupport
import Testing

/// Each product's main path, through the gateway, with nothing but the typed client: a mismatch between the
/// document the client is generated from and what a service sends fails to decode here.
@Suite(.serialized) struct ProductScenarioTests {
    static let campus = (latitude: 48.8486, longitude: 2.3431)
    static let atCampus = "\(campus.latitude);\(campus.longitude)"

    /// Two signed-in people who are friends.
    func friends(_ stack: TestStack) async throws -> (alice: PlatformClient, bob: PlatformClient, bobID: String) {
        let people = ClientPeople(stack: stack)
        let alice = try await people.signUp("alice").client
        let bob = try await people.signUp("bob")
        try await people.befriend(alice, bob.client, username: "bob")
        return (alice, bob.client, bob.id)
    }

    @Test func weGroupFriendsTalkInATopic() async throws {
        try await ProductStack.run { stack in
            let (alice, bob, bobID) = try await friends(stack)
            let people = ClientPeople(stack: stack)
            let (carol, carolID) = try await people.signUp("carol")
            try await people.befriend(carol, alice, username: "alice")
            let group = try await alice.api.createGroup(
                body: .json(.init(memberIds: [bobID, carolID], name: "Climbing", product: .wegroup))
            ).created.body.json
            let topic = try await alice.api.createTopic(
                path: .init(conversationId: group.id), body: .json(.init(name: "Saturday"))
            ).created.body.json
            _ = try await alice.api.sendMessage(
                path: .init(conversationId: group.id),
                body: .json(.init(text: "Fontainebleau at nine?", topicId: topic.id))
            ).created
            let page = try await bob.api.listMessages(
                path: .init(conversationId: group.id), query: .init(topicId: topic.id)
            ).ok.body.json
            #expect(page.items.map(\.text) == ["Fontainebleau at nine?"])
            let seenByBob = try await bob.api.getTopic(path: .init(conversationId: group.id, topicId: topic.id))
                .ok.body.json
            #expect(seenByBob.name == "Saturday")
            let conversations = try await bob.api.listConversations(query: .init(product: .wegroup)).ok.body.json
            #expect(conversations.items.map(\.id) == [group.id])
        }
    }

    @Test func getawayPinsAPlaceAndReadsTheMap() async throws {
        try await ProductStack.run { stack in
            let (alice, bob, _) = try await friends(stack)
            let pin = try await alice.api.createPin(
                body: .json(.init(latitude: Self.campus.latitude, longitude: Self.campus.longitude, placeName: "Paris"))
            ).created.body.json
            let map = try await bob.api.getMap(query: .init(bbox: "2.0,48.5,2.6,49.0", zoom: 15)).ok.body.json
            #expect(map.features.count == 1)
            #expect(map.features.first?.properties.pinId == pin.id)
        }
    }

    @Test func skwadJoinsAPackAndPosts() async throws {
        try await ProductStack.run { stack in
            let (alice, bob, _) = try await friends(stack)
            let pack = try await alice.api.createPack(
                headers: .init(geoPosition: Self.atCampus),
                body: .json(
                    .init(
                        color: "#FF8800", latitude: Self.campus.latitude, longitude: Self.campus.longitude,
                        name: "Library crew", radiusMeters: 1_000, tags: ["campus"]))
            ).created.body.json
            _ = try await bob.api.joinPack(path: .init(pack: pack.id), headers: .init(geoPosition: Self.atCampus)).ok
            _ = try await bob.api.createPost(
                path: .init(pack: pack.id), headers: .init(geoPosition: Self.atCampus),
                body: .json(.init(body: "Third floor is quiet today.", title: "Quiet floor"))
            ).created
            let posts = try await alice.api.listPackPosts(
                path: .init(pack: pack.id), headers: .init(geoPosition: Self.atCampus)
            ).ok.body.json
            #expect(posts.items.map(\.title) == ["Quiet floor"])
        }
    }

    @Test func aHabitEventShowsAsDoneToday() async throws {
        try await ProductStack.run { stack in
            let alice = try await ClientPeople(stack: stack).signUp("alice").client
            let habit = try await alice.api.createHabit(
                body: .json(.init(title: "Stretch", weekdays: [.mon, .tue, .wed, .thu, .fri, .sat, .sun]))
            ).created.body.json
            _ = try await alice.api.addHabitEvent(path: .init(habit: habit.id), body: .json(.init(comment: "10 min")))
                .created
            let today = try await alice.api.listHabitsToday().ok.body.json
            #expect(today.items.map(\.value1.title) == ["Stretch"])
            #expect(today.items.map(\.value2.doneToday) == [true])
        }
    }

    @Test func roomatesSplitABillAndReadTheSettleUpPlan() async throws {
        try await ProductStack.run { stack in
            let (alice, bob, bobID) = try await friends(stack)
            let household = try await alice.api.createHousehold(body: .json(.init(name: "Flat 4B"))).created.body.json
            let invitation = try await alice.api.invite(
                path: .init(household: household.id), body: .json(.init(username: "bob"))
            ).created.body.json
            _ = try await bob.api.acceptInvitation(path: .init(invitation: invitation.id)).ok
            _ = try await alice.api.addBill(
                path: .init(household: household.id),
                body: .json(.init(amount: 9_000, currency: "EUR", description: "Groceries", split: .init(kind: .equal)))
            ).created
            let balances = try await bob.api.getBalances(path: .init(household: household.id)).ok.body.json
            let euros = try #require(balances.currencies.first { $0.currency == "EUR" })
            #expect(euros.plan.map { [$0.from, $0.to] } == [[bobID, try #require(household.members.first?.userId)]])
            #expect(euros.plan.map(\.amount) == [4_500])
        }
    }
}
