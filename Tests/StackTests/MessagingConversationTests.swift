import Foundation
import PlatformKit
import TestSupport
import Testing

/// Direct and group conversations through the gateway: who may open, see and change them.
@Suite struct MessagingConversationTests {
    @Test func aDirectConversationIsOnePerPair() async throws {
        try await MessagingWorld.run { world in
            // given ann opened a conversation with bob
            let first = try await world.api.post(
                MessagingPaths.direct, token: world.ann.accessToken,
                json: ["userId": world.bob.id, "product": "wegroup"])
            #expect(first.status == 201)
            let conversation = try first.decode(WireConversation.self)
            let id = conversation.id
            #expect(conversation.kind == "direct")
            #expect(conversation.otherUser?.username == "bob")
            #expect(conversation.otherUser?.userId == world.bob.id)
            #expect(conversation.members?.count == 2)
            // when either opens it again, by id or username, then it is the same one
            let again = try await world.api.post(
                MessagingPaths.direct, token: world.ann.accessToken, json: ["username": "bob", "product": "wegroup"])
            #expect(again.status == 200)
            #expect(try again.decode(WireConversation.self).id == id)
            let back = try await world.api.post(
                MessagingPaths.direct, token: world.bob.accessToken,
                json: ["userId": world.ann.id, "product": "wegroup"])
            #expect(try back.decode(WireConversation.self).id == id)
            // in Getaway strangers need no friendship to talk, but outsiders never see the conversation
            #expect(try await world.direct(world.eve, world.ann, product: "getaway") != id)
            #expect(try await world.api.get(world.path(id), token: world.cat.accessToken).status == 404)
            #expect(try await world.send(world.cat, id, "hi").status == 404)
            #expect(try await world.api.get(world.path(id, "/messages"), token: world.cat.accessToken).status == 404)
        }
    }

    @Test func blockedUsersCannotMessageEachOther() async throws {
        try await MessagingWorld.run { world in
            // given ann and eve talk
            let id = try await world.direct(world.ann, world.eve, product: "getaway")
            #expect(try await world.send(world.ann, id, "hello").status == 201)
            // when eve blocks ann
            let block = try await world.api.send(
                .PUT, "\(SocialPaths.blocks)/\(world.ann.id)", token: world.eve.accessToken)
            #expect([200, 204].contains(block.status))
            // then neither can send, and a new conversation reads like an unknown user
            let refused = try await world.send(world.ann, id, "are you there?")
            #expect(refused.status == 403)
            #expect(refused.problem?.code == "blocked")
            #expect(try await world.send(world.eve, id, "go away").problem?.code == "blocked")
            #expect(
                try await world.api.post(
                    MessagingPaths.direct, token: world.ann.accessToken,
                    json: ["userId": world.eve.id, "product": "getaway"]
                )
                .status == 404)
            // the history stays readable
            #expect(
                try world.texts(await world.api.get(world.path(id, "/messages"), token: world.ann.accessToken)) == [
                    "hello"
                ])
        }
    }

    @Test func aGroupNeedsANameAndTwoFriends() async throws {
        try await MessagingWorld.run { world in
            let create: (String, [TestUser]) async throws -> APIResponse = { name, members in
                try await world.api.post(
                    MessagingPaths.groups, token: world.ann.accessToken,
                    json: MessagingWorld.GroupBody(name: name, memberIds: members.map(\.id)))
            }
            #expect(try await create("Trip", [world.bob]).problem?.code == "invalid_member_ids")
            #expect(try await create("Trip", [world.bob, world.bob, world.ann]).problem?.code == "invalid_member_ids")
            let stranger = try await create("Trip", [world.bob, world.eve])
            #expect(stranger.status == 403)
            #expect(stranger.problem?.code == "not_friends")
            #expect(try await create("   ", [world.bob, world.cat]).problem?.code == "invalid_name")
            #expect(try await create(String(repeating: "n", count: 81), [world.bob, world.cat]).status == 400)
            // when the creator picks two friends
            let created = try await create("Trip", [world.bob, world.cat])
            #expect(created.status == 201)
            let group = try created.decode(WireConversation.self)
            let id = group.id
            #expect(group.kind == "group")
            let members = try #require(group.members)
            #expect(Set(members.compactMap(\.username)) == ["ann", "bob", "cat"])
            #expect(members.first { $0.username == "ann" }?.role == "admin")
            #expect(world.notices.all.last?.kind == "messaging.added_to_group")
            #expect(Set(world.notices.all.last?.recipients ?? []) == [world.bob.id, world.cat.id])
            // then only its members see it
            #expect(try await world.api.get(world.path(id), token: world.cat.accessToken).status == 200)
            #expect(try await world.api.get(world.path(id), token: world.dan.accessToken).status == 404)
            #expect(try await world.send(world.dan, id, "let me in").status == 404)
            #expect(try await world.api.get(world.path(id, "/topics"), token: world.dan.accessToken).status == 404)
        }
    }

    @Test func membersInviteFriendsAdminsRenameAndRemove() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            // a member invites their own friend, not a stranger
            let invite: (TestUser, TestUser) async throws -> APIResponse = { by, who in
                try await world.api.post(
                    world.path(id, "/members"), token: by.accessToken, json: ["userIds": [who.id]])
            }
            #expect(try await invite(world.bob, world.eve).problem?.code == "not_friends")
            #expect(try await invite(world.eve, world.dan).status == 404)
            try await world.message(world.ann, id, "before dan joined")
            let invited = try await invite(world.bob, world.dan)
            #expect(invited.status == 200)
            #expect(try invited.decode(WireConversation.self).members?.count == 4)
            #expect(world.notices.all.last?.recipients == [world.dan.id])
            let again = try await invite(world.bob, world.dan)
            #expect(again.status == 409, "inviting a member again changes nothing")
            #expect(again.problem?.code == "already_member")
            #expect(again.problem?.errors?.map(\.reason) == ["\(world.dan.id) is already a member."])
            let dans = try await world.api.get(world.path(id, "/messages"), token: world.dan.accessToken)
            #expect(try world.texts(dans) == ["before dan joined"], "newcomers see the history")
            #expect(
                try await world.api.get(world.path(id), token: world.dan.accessToken).decode(WireConversation.self)
                    .unreadCount == 0)
            // only admins rename and remove
            let rename: (TestUser, String) async throws -> APIResponse = { by, name in
                try await world.api.patch(world.path(id), token: by.accessToken, json: ["name": name])
            }
            #expect(try await rename(world.bob, "Mine").problem?.code == "not_admin")
            #expect(try await rename(world.ann, "").status == 400)
            #expect(try await rename(world.eve, "Mine").status == 404)
            #expect(try await rename(world.ann, "Road trip").decode(WireConversation.self).name == "Road trip")
            #expect(
                try await world.api.delete(world.path(id, "/members/\(world.cat.id)"), token: world.bob.accessToken)
                    .problem?.code == "not_admin")
            #expect(
                try await world.api.delete(world.path(id, "/members/\(world.cat.id)"), token: world.ann.accessToken)
                    .status == 204)
            #expect(try await world.api.get(world.path(id), token: world.cat.accessToken).status == 404)
            #expect(
                try await world.api.delete(world.path(id, "/members/\(world.eve.id)"), token: world.ann.accessToken)
                    .status == 404)
            // bob becomes an admin; the creator cannot be removed by him
            let promoted = try await world.api.patch(
                world.path(id, "/members/\(world.bob.id)"), token: world.ann.accessToken, json: ["role": "admin"])
            #expect(promoted.status == 200)
            #expect(
                try await world.api.patch(
                    world.path(id, "/members/\(world.bob.id)"), token: world.ann.accessToken, json: ["role": "owner"]
                ).status == 400)
            #expect(
                try await world.api.delete(world.path(id, "/members/\(world.ann.id)"), token: world.bob.accessToken)
                    .status == 403)
            // members leave; the group lives on with an admin
            #expect(try await world.api.post(world.path(id, "/leave"), token: world.ann.accessToken).status == 204)
            #expect(try await world.api.post(world.path(id, "/leave"), token: world.bob.accessToken).status == 204)
            let left = try await world.api.get(world.path(id), token: world.dan.accessToken)
            #expect(try left.decode(WireConversation.self).members?.map(\.role) == ["admin"])
            // a direct conversation has no members to change
            let direct = try await world.direct(world.ann, world.bob)
            #expect(try await world.api.post(world.path(direct, "/leave"), token: world.ann.accessToken).status == 409)
            #expect(try await rename(world.ann, "x").status == 404, "ann left the group")
        }
    }

    @Test func theConversationListIsOrderedByActivity() async throws {
        try await MessagingWorld.run { world in
            // given three conversations of ann's, the oldest with the latest message
            let trip = try await world.group(world.ann, "Trip", with: [world.bob, world.cat])
            let withBob = try await world.direct(world.ann, world.bob)
            let withDan = try await world.direct(world.ann, world.dan)
            try await world.message(world.bob, withBob, "lunch?")
            try await world.message(world.cat, trip, "tickets are booked, see the attached plan for details")
            #expect(
                try await world.api.send(.PUT, world.path(withDan, "/mute"), token: world.ann.accessToken).status == 200
            )
            // when ann lists them
            let list = try await world.api.get(MessagingPaths.conversations, token: world.ann.accessToken)
            let items = try world.conversations(list)
            // then the newest activity comes first, with preview, unread count and mute state
            #expect(items.map(\.id) == [trip, withBob, withDan])
            try #require(items.count == 3)
            #expect(items[0].lastMessage?.text == "tickets are booked, see the attached plan for details")
            #expect(items[0].unreadCount == 1)
            #expect(items[0].name == "Trip")
            #expect(items[1].otherUser?.username == "bob")
            #expect(items[2].muted == true)
            #expect(items[2].lastMessage == nil)
            // and pages follow on
            let first = try await world.api.get(MessagingPaths.conversations + "?limit=2", token: world.ann.accessToken)
            let firstPage = try first.decode(WirePage<WireConversation>.self)
            #expect(firstPage.items.count == 2)
            let cursor = try #require(firstPage.nextCursor)
            let second = try await world.api.get(
                MessagingPaths.conversations + "?limit=2&cursor=\(cursor)", token: world.ann.accessToken)
            let secondPage = try second.decode(WirePage<WireConversation>.self)
            #expect(secondPage.items.map(\.id) == [withDan])
            #expect(secondPage.nextCursor == nil)
            let bad = try await world.api.get(
                MessagingPaths.conversations + "?cursor=garbage", token: world.ann.accessToken)
            #expect(bad.problem?.code == "invalid_cursor")
            #expect(
                try await world.api.get(MessagingPaths.conversations + "?limit=0", token: world.ann.accessToken).status
                    == 400)
            // others see only their own
            let cats = try await world.api.get(MessagingPaths.conversations, token: world.cat.accessToken)
            #expect(try world.conversations(cats).map(\.id) == [trip])
            // ann opened the chat with dan without writing: it is not in dan's list until someone writes
            func dans() async throws -> [WireConversation] {
                try world.conversations(
                    try await world.api.get(MessagingPaths.conversations, token: world.dan.accessToken))
            }
            #expect(try await dans().map(\.id).contains(withDan) == false)
            #expect(try await world.api.get(world.path(withDan), token: world.dan.accessToken).status == 200)
            try await world.message(world.ann, withDan, "hi dan")
            #expect(try await dans().map(\.id).first == withDan)
            let unmuted = try await world.api.send(.DELETE, world.path(withDan, "/mute"), token: world.ann.accessToken)
                .decode(WireMute.self)
            #expect(unmuted.muted == false)
            #expect(unmuted.conversationId == withDan)
            #expect(
                try await world.api.send(.PUT, world.path(withDan, "/mute"), token: world.cat.accessToken).status == 404
            )
        }
    }

    @Test func addingExistingMembersNamesEachAndAddsTheOthers() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            let add: (TestUser, [TestUser]) async throws -> APIResponse = { by, who in
                try await world.api.post(
                    world.path(id, "/members"), token: by.accessToken, json: ["userIds": who.map(\.id)])
            }
            // all already in: 409 naming each (cat is in the group, though not bob's friend: not asked about)
            let none = try await add(world.bob, [world.ann, world.cat])
            #expect(none.status == 409)
            #expect(none.problem?.code == "already_member")
            #expect(none.problem?.errors?.map(\.field) == ["userIds", "userIds"])
            #expect(
                none.problem?.errors?.map(\.reason)
                    == ["\(world.ann.id) is already a member.", "\(world.cat.id) is already a member."])
            // some new: 200, the new ones added, the others named in `alreadyMembers`
            let some = try await add(world.ann, [world.cat, world.dan])
            #expect(some.status == 200)
            let group = try some.decode(WireConversation.self)
            #expect(group.alreadyMembers == [world.cat.id])
            #expect(group.members?.count == 4)
            // an outsider learns nothing about who is in it
            #expect(try await add(world.eve, [world.ann]).status == 404)
        }
    }

    @Test func groupsAFriendIsIn() async throws {
        try await MessagingWorld.run { world in
            let trip = try await world.group(world.ann, "Trip", with: [world.bob, world.cat])
            let dinner = try await world.group(world.bob, "Dinner", with: [world.ann, world.dan])
            _ = try await world.group(world.ann, "Cats only", with: [world.cat, world.dan])
            try await world.message(world.bob, trip, "newest activity")
            let shared = try await world.api.get(
                "\(MessagingPaths.users)/\(world.bob.id)/groups", token: world.ann.accessToken)
            #expect(shared.status == 200)
            let groups = try shared.decode(WirePage<WireFriendGroup>.self).items
            #expect(groups.map(\.id) == [trip, dinner])
            #expect(groups.first?.name == "Trip")
            #expect(groups.first?.memberCount == 3)
            // id, name, member count and last activity only: the message text never leaves the group
            let body = shared.text
            #expect(!body.contains("newest activity") && !body.contains("lastMessage"))
            // a page at a time, and the cursor leads to the rest
            let first = try await world.api.get(
                "\(MessagingPaths.users)/\(world.bob.id)/groups?limit=1", token: world.ann.accessToken
            ).decode(WirePage<WireFriendGroup>.self)
            #expect(first.items.map(\.id) == [trip])
            let cursor = try #require(first.nextCursor)
            let rest = try await world.api.get(
                "\(MessagingPaths.users)/\(world.bob.id)/groups?limit=1&cursor=\(cursor)",
                token: world.ann.accessToken
            ).decode(WirePage<WireFriendGroup>.self)
            #expect(rest.items.map(\.id) == [dinner])
            #expect(rest.nextCursor == nil)
            let badLimit = try await world.api.get(
                "\(MessagingPaths.users)/\(world.bob.id)/groups?limit=0", token: world.ann.accessToken)
            #expect(badLimit.problem?.code == "invalid_limit")
            let stranger = try await world.api.get(
                "\(MessagingPaths.users)/\(world.eve.id)/groups", token: world.ann.accessToken)
            #expect(stranger.problem?.code == "not_friends")
            #expect(
                try await world.api.get("\(MessagingPaths.users)/\(world.ann.id)/groups", token: world.ann.accessToken)
                    .status == 400)
        }
    }
}
