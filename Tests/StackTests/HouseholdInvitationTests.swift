import Foundation
import PlatformKit
import TestSupport
import Testing

/// Issue 41: a household invitation tells the inviter nothing a stranger may not know. Between two people where
/// either blocked the other it answers as for an unknown username and sends nothing; to someone already in a
/// household it is made as any other, and only the invitee learns, on accepting, that they must leave theirs first.
@Suite struct HouseholdInvitationTests {
    /// The answer to `inviter` inviting `username` to `household`, as status, problem code and detail (the username
    /// written as `<name>`, so answers about different names compare).
    func invite(_ stack: TestStack, _ inviter: TestUser, _ username: String, to household: String) async throws
        -> (status: Int, code: String?, detail: String?)
    {
        let response = try await stack.gateway.post(
            "\(HouseholdPaths.households)/\(household)/invitations", token: inviter.accessToken,
            json: ["username": username])
        return (
            response.status, response.problem?.code,
            response.problem?.detail?.replacingOccurrences(of: username, with: "<name>")
        )
    }

    func household(_ stack: TestStack, of owner: TestUser) async throws -> String {
        let created = try await stack.gateway.post(
            HouseholdPaths.households, token: owner.accessToken, json: ["name": "Flat 4", "timeZone": "UTC"])
        #expect(created.status == 201)
        return try created.decode(WireHousehold.self).id
    }

    func inbox(_ stack: TestStack, _ user: TestUser) async throws -> [String] {
        let response = try await stack.gateway.get(NotificationsPaths.notifications, token: user.accessToken)
        return try response.decode(WirePage<WireNotification>.self).items.map(\.kind)
    }

    func pendingInvitations(_ stack: TestStack, _ user: TestUser) async throws -> [WireInvitation] {
        let response = try await stack.gateway.get(HouseholdPaths.households + "/invitations", token: user.accessToken)
        return try response.decode(WirePage<WireInvitation>.self).items
    }

    @Test func invitationsBetweenBlockedPeopleAnswerAsForAnUnknownUserAndSendNothing() async throws {
        try await ProductStack.run(notifications: true) { stack in
            // given ann's household; bob blocked ann, ann blocked cat, dan is nobody's
            let (ann, bob, cat, dan) = (
                try await stack.register("ann"), try await stack.register("bob"), try await stack.register("cat"),
                try await stack.register("dan")
            )
            let home = try await household(stack, of: ann)
            #expect(
                try await stack.gateway.send(.PUT, "\(SocialPaths.blocks)/\(ann.id)", token: bob.accessToken).status
                    < 300)
            #expect(
                try await stack.gateway.send(.PUT, "\(SocialPaths.blocks)/\(cat.id)", token: ann.accessToken).status
                    < 300)
            let streams = (bob: try await Self.stream(stack, bob), cat: try await Self.stream(stack, cat))
            // when ann invites each
            let unknown = try await invite(stack, ann, "nobody", to: home)
            let blockedByBob = try await invite(stack, ann, bob.username, to: home)
            let blockedCat = try await invite(stack, ann, cat.username, to: home)
            let free = try await invite(stack, ann, dan.username, to: home)
            // then the blocked answer exactly as the unknown name
            #expect(unknown.status == 404)
            #expect(blockedByBob == unknown)
            #expect(blockedCat == unknown)
            #expect(free.status == 201)
            // and only dan is told: his notice arrives, theirs never do
            #expect(try await eventually { try await inbox(stack, dan) == ["household.invitation"] })
            _ = try await stack.direct(.notifications).send(
                .POST, NotificationsPaths.internalEvents,
                json: JSONValue.object([
                    "recipientIds": .array([.string(bob.id), .string(cat.id)]), "type": .string("test.marker"),
                    "payload": .string("{}"), "producer": .string("test"),
                ]),
                headers: [(PlatformHeaders.internalToken, stack.internalToken)])
            #expect(try await streams.bob.nextEvent().event == "test.marker")
            #expect(try await streams.cat.nextEvent().event == "test.marker")
            #expect(try await inbox(stack, bob).isEmpty)
            #expect(try await inbox(stack, cat).isEmpty)
            #expect(try await pendingInvitations(stack, bob).isEmpty)
            #expect(try await pendingInvitations(stack, cat).isEmpty)
            // and the block works the other way round too: bob cannot invite ann to a household of his
            #expect(try await invite(stack, bob, ann.username, to: try await household(stack, of: bob)) == unknown)
            streams.bob.close()
            streams.cat.close()
        }
    }

    @Test func anInvitationToSomeoneInAHouseholdIsMadeAsAnyOtherAndOnlyTheInviteeLearnsIt() async throws {
        try await ProductStack.run(notifications: true) { stack in
            // given ann's household, and bob in a household of his own; cat is in none
            let (ann, bob, cat) = (
                try await stack.register("ann"), try await stack.register("bob"), try await stack.register("cat")
            )
            let annsHome = try await household(stack, of: ann)
            let bobsHome = try await household(stack, of: bob)
            // when ann invites both
            let toBob = try await stack.gateway.post(
                "\(HouseholdPaths.households)/\(annsHome)/invitations", token: ann.accessToken,
                json: ["username": bob.username])
            let toCat = try await stack.gateway.post(
                "\(HouseholdPaths.households)/\(annsHome)/invitations", token: ann.accessToken,
                json: ["username": cat.username])
            // then the two answers differ only in whom they name
            #expect(toBob.status == 201)
            #expect(toCat.status == 201)
            #expect(Set(toBob.object.keys) == Set(toCat.object.keys))
            #expect(toBob.object["status"] as? String == "pending")
            #expect(toCat.object["status"] as? String == "pending")
            // the invitee's side: bob is told and sees it
            #expect(try await eventually { try await inbox(stack, bob) == ["household.invitation"] })
            let invitation = try #require(try await pendingInvitations(stack, bob).first)
            #expect(invitation.householdId == annsHome)
            // accepting while in his household tells him (only him) to leave it first; the invitation stays
            let accept = "\(HouseholdPaths.households)/invitations/\(invitation.id)/accept"
            let early = try await stack.gateway.post(accept, token: bob.accessToken)
            #expect(early.status == 409)
            #expect(early.problem?.code == "already_in_household")
            #expect(early.problem?.detail == "You are already in a household; leave it first.")
            #expect(try await pendingInvitations(stack, bob).map(\.id) == [invitation.id])
            // once he left his, he may accept
            #expect(
                try await stack.gateway.post(
                    "\(HouseholdPaths.households)/\(bobsHome)/leave", token: bob.accessToken
                ).status == 204)
            #expect(try await stack.gateway.post(accept, token: bob.accessToken).status == 200)
            let mine = try await stack.gateway.get(HouseholdPaths.households + "/mine", token: bob.accessToken)
            #expect(try mine.decode(WireHousehold.self).id == annsHome)
            // cat, in no household, may decline hers
            let catsInvitation = try #require(try await pendingInvitations(stack, cat).first)
            #expect(
                try await stack.gateway.post(
                    "\(HouseholdPaths.households)/invitations/\(catsInvitation.id)/decline", token: cat.accessToken
                ).status == 204)
            #expect(try await pendingInvitations(stack, cat).isEmpty)
        }
    }

    static func stream(_ stack: TestStack, _ user: TestUser) async throws -> EventStreamClient {
        let stream = try await EventStreamClient.connect(
            stack.gateway.baseURL + NotificationsPaths.stream, token: user.accessToken)
        #expect(stream.status == 200)
        return stream
    }
}
