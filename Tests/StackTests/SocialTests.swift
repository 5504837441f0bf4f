import Foundation
import PlatformKit
import SocialService
import TestSupport
import Testing

/// A stack with the social service, its notices recorded, and four users.
struct SocialWorld {
    let stack: TestStack
    let notices: RecordedNotices
    let ann: TestUser, bob: TestUser, cat: TestUser, dan: TestUser
    var api: APIClient { stack.gateway }

    static func run(_ body: (SocialWorld) async throws -> Void) async throws {
        let notices = RecordedNotices()
        try await withTestStack(services: [
            .social: { settings in
                try await buildSocialApplication(SocialConfiguration(settings: settings, noticeSink: notices))
            }
        ]) { stack in
            try await body(
                SocialWorld(
                    stack: stack, notices: notices, ann: try await stack.register("ann"),
                    bob: try await stack.register("bob"),
                    cat: try await stack.register("cat"), dan: try await stack.register("dan")))
        }
    }

    /// Sends a friend request by username and returns its id.
    func request(_ from: TestUser, _ to: TestUser) async throws -> String {
        let response = try await api.post(
            SocialPaths.friendRequests, token: from.accessToken, json: ["username": to.username])
        #expect(response.status == 201)
        return try response.decode(WireFriendRequest.self).id
    }

    func befriend(_ a: TestUser, _ b: TestUser) async throws {
        let id = try await request(a, b)
        #expect(try await api.post("\(SocialPaths.friendRequests)/\(id)/accept", token: b.accessToken).status == 200)
    }

    /// The usernames of a page of users (friends, followers, blocks, ...).
    func names(_ response: APIResponse) throws -> [String?] {
        try response.decode(WirePage<WireUserSummary>.self).items.map(\.username)
    }

    /// A page of friend requests.
    func requests(_ response: APIResponse) throws -> [WireFriendRequest] {
        try response.decode(WirePage<WireFriendRequest>.self).items
    }

    /// Every page of a list, `limit` at a time, each item keyed by `key`: the pages' sizes and the keys in order.
    func walk<Item: Decodable & Sendable>(
        _ path: String, as viewer: TestUser, limit: Int, _: Item.Type, key: (Item) -> String
    ) async throws -> (sizes: [Int], keys: [String]) {
        var sizes: [Int] = []
        var keys: [String] = []
        var cursor: String?
        let joiner = path.contains("?") ? "&" : "?"
        repeat {
            let query = "\(joiner)limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try await api.get(path + query, token: viewer.accessToken)
            #expect(response.status == 200)
            let page = try response.decode(WirePage<Item>.self)
            sizes.append(page.items.count)
            keys += page.items.map(key)
            cursor = page.nextCursor
        } while cursor != nil && sizes.count < 10
        return (sizes, keys)
    }

    func relationship(_ viewer: TestUser, _ other: TestUser) async throws -> WireRelationFlags {
        let response = try await api.get("\(SocialPaths.users)/\(other.id)/relationship", token: viewer.accessToken)
        let view = try response.decode(WireRelationshipView.self)
        #expect(view.userId == other.id)
        return view.relationship
    }
}

@Suite struct FriendshipTests {
    @Test func aRequestAcceptedMakesBothFriends() async throws {
        try await SocialWorld.run { world in
            let id = try await world.request(world.ann, world.bob)
            let incoming = try await world.api.get(
                SocialPaths.friendRequests + "?direction=incoming", token: world.bob.accessToken)
            #expect(try world.requests(incoming).map(\.id) == [id])
            let outgoing = try await world.api.get(
                SocialPaths.friendRequests + "?direction=outgoing", token: world.ann.accessToken)
            #expect(try world.requests(outgoing).map(\.id) == [id])
            let accepted = try await world.api.post(
                "\(SocialPaths.friendRequests)/\(id)/accept", token: world.bob.accessToken)
            #expect(try accepted.decode(WireFriendRequest.self).status == "accepted")
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.ann.accessToken)) == ["bob"])
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.bob.accessToken)) == ["ann"])
            #expect(world.notices.kinds == ["social.friend_request", "social.friend_accepted"])
            #expect(world.notices.all.map(\.recipients) == [[world.bob.id], [world.ann.id]])
            #expect(try await world.relationship(world.ann, world.bob).friend == true)
        }
    }

    @Test func askingSomeoneWhoAlreadyAskedYouAcceptsBoth() async throws {
        try await SocialWorld.run { world in
            _ = try await world.request(world.ann, world.bob)
            let back = try await world.api.post(
                SocialPaths.friendRequests, token: world.bob.accessToken, json: ["userId": world.ann.id])
            #expect(back.status == 200)
            #expect(try back.decode(WireFriendRequest.self).status == "accepted")
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.ann.accessToken)) == ["bob"])
        }
    }

    @Test func badRequestsAndTransitionsAreClearErrors() async throws {
        try await SocialWorld.run { world in
            let send = { (user: TestUser, body: [String: String]) in
                try await world.api.post(SocialPaths.friendRequests, token: user.accessToken, json: body)
            }
            #expect(try await send(world.ann, ["username": "ann"]).problem?.code == "self_request")
            #expect(try await send(world.ann, ["username": "nobody"]).status == 404)
            #expect(try await send(world.ann, ["userId": "no-such-id"]).status == 404)
            #expect(try await send(world.ann, [:]).problem?.code == "missing_user")
            #expect(
                try await world.api.post(SocialPaths.friendRequests, token: world.ann.accessToken, raw: "{").status
                    == 400)
            let id = try await world.request(world.ann, world.bob)
            #expect(try await send(world.ann, ["username": "bob"]).problem?.code == "request_pending")
            // only the recipient answers, only the sender cancels; others cannot even see it
            #expect(
                try await world.api.post("\(SocialPaths.friendRequests)/\(id)/accept", token: world.ann.accessToken)
                    .status == 404)
            #expect(
                try await world.api.post("\(SocialPaths.friendRequests)/\(id)/accept", token: world.cat.accessToken)
                    .status == 404)
            #expect(
                try await world.api.post("\(SocialPaths.friendRequests)/\(id)/cancel", token: world.bob.accessToken)
                    .status == 404)
            #expect(
                try await world.api.post("\(SocialPaths.friendRequests)/\(id)/maybe", token: world.bob.accessToken)
                    .status == 404)
            #expect(
                try world.requests(await world.api.get(SocialPaths.friendRequests, token: world.cat.accessToken))
                    .isEmpty)
            // a cancelled request cannot be accepted
            #expect(
                try await world.api.post("\(SocialPaths.friendRequests)/\(id)/cancel", token: world.ann.accessToken)
                    .status == 200)
            let late = try await world.api.post(
                "\(SocialPaths.friendRequests)/\(id)/accept", token: world.bob.accessToken)
            #expect(late.status == 409)
            #expect(late.problem?.code == "request_not_pending")
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.bob.accessToken)).isEmpty)
            try await world.befriend(world.ann, world.bob)
            #expect(try await send(world.bob, ["username": "ann"]).problem?.code == "already_friends")
            #expect(
                try await world.api.get(
                    SocialPaths.friendRequests + "?direction=sideways", token: world.ann.accessToken
                ).status == 400)
        }
    }

    @Test func unfriendingEndsItForBoth() async throws {
        try await SocialWorld.run { world in
            try await world.befriend(world.ann, world.bob)
            #expect(
                try await world.api.delete("\(SocialPaths.friends)/\(world.ann.id)", token: world.bob.accessToken)
                    .status == 204)
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.ann.accessToken)).isEmpty)
            #expect(
                try await world.api.delete("\(SocialPaths.friends)/\(world.ann.id)", token: world.bob.accessToken)
                    .status == 404)
        }
    }

    @Test func theFriendListIsSearchableAndPaged() async throws {
        try await SocialWorld.run { world in
            _ = try await world.api.patch(
                IdentityPaths.me, token: world.bob.accessToken, json: ["displayName": "Bobby Tables"])
            for friend in [world.bob, world.cat, world.dan] { try await world.befriend(world.ann, friend) }
            #expect(
                try world.names(await world.api.get(SocialPaths.friends + "?query=TAB", token: world.ann.accessToken))
                    == ["bob"])
            #expect(
                try world.names(await world.api.get(SocialPaths.friends + "?query=ca", token: world.ann.accessToken))
                    == ["cat"])
            #expect(
                try world.names(await world.api.get(SocialPaths.friends + "?query=%25", token: world.ann.accessToken))
                    .isEmpty)
            let first = try await world.api.get(SocialPaths.friends + "?limit=2", token: world.ann.accessToken)
            #expect(try world.names(first) == ["bob", "cat"])
            let cursor = try #require(try first.decode(WirePage<WireUserSummary>.self).nextCursor)
            #expect(
                try world.names(
                    await world.api.get(
                        SocialPaths.friends + "?limit=2&cursor=\(cursor)", token: world.ann.accessToken)) == ["dan"])
            #expect(
                try await world.api.get(SocialPaths.friends + "?cursor=x", token: world.ann.accessToken).status == 400)
        }
    }

    @Test func mutualFriendsAndSuggestionsRankedByMutualCount() async throws {
        try await SocialWorld.run { world in
            try await world.befriend(world.ann, world.bob)
            try await world.befriend(world.ann, world.cat)
            try await world.befriend(world.bob, world.dan)
            try await world.befriend(world.cat, world.dan)
            let suggestions = try await world.api.get(SocialPaths.suggestions, token: world.ann.accessToken)
            let first = try #require(try suggestions.decode(WireItems<WireSuggestion>.self).items.first)
            #expect(first.user.username == "dan")
            #expect(first.user.userId == world.dan.id)
            #expect(first.mutualFriends == 2)
            #expect(
                try world.names(
                    await world.api.get(
                        "\(SocialPaths.users)/\(world.dan.id)/mutual-friends", token: world.ann.accessToken)) == [
                        "bob", "cat",
                    ])
        }
    }
}

@Suite struct SocialPagingTests {
    @Test func everySocialListPages() async throws {
        try await SocialWorld.run { world in
            let others = [world.ann, world.cat, world.dan]
            for user in others {
                _ = try await world.request(user, world.bob)
                let follow = try await world.api.post(
                    SocialPaths.follows, token: user.accessToken, json: ["username": world.bob.username])
                #expect(follow.status == 201)
            }
            let ids = Set(others.map(\.id))
            let incoming = try await world.walk(
                SocialPaths.friendRequests + "?direction=incoming", as: world.bob, limit: 2, WireFriendRequest.self
            ) { $0.from.userId }
            #expect(incoming.sizes == [2, 1] && Set(incoming.keys) == ids && incoming.keys.count == 3)
            let outgoing = try await world.walk(
                SocialPaths.friendRequests + "?direction=outgoing", as: world.ann, limit: 1, WireFriendRequest.self
            ) { $0.to.userId }
            #expect(outgoing.sizes == [1] && outgoing.keys == [world.bob.id])
            let asking = try await world.walk(
                SocialPaths.followRequests, as: world.bob, limit: 2, WireUserSummary.self
            ) { $0.userId }
            #expect(asking.sizes == [2, 1] && asking.keys == ids.sorted())
            for user in others {
                let approved = try await world.api.post(
                    "\(SocialPaths.followRequests)/\(user.id)/approve", token: world.bob.accessToken)
                #expect(approved.status == 204)
            }
            let followers = try await world.walk(
                SocialPaths.followers, as: world.bob, limit: 2, WireUserSummary.self
            ) { $0.userId }
            #expect(followers.sizes == [2, 1] && followers.keys == ids.sorted())
            let following = try await world.walk(
                SocialPaths.following, as: world.cat, limit: 2, WireUserSummary.self
            ) { $0.userId }
            #expect(following.sizes == [1] && following.keys == [world.bob.id])
            for user in others {
                #expect(
                    try await world.api.send(.PUT, "\(SocialPaths.blocks)/\(user.id)", token: world.bob.accessToken)
                        .status == 204)
            }
            let blocks = try await world.walk(
                SocialPaths.blocks, as: world.bob, limit: 2, WireUserSummary.self
            ) { $0.userId }
            #expect(blocks.sizes == [2, 1] && Set(blocks.keys) == ids && blocks.keys.count == 3)
        }
    }

    @Test func aCursorFromAnotherUsersRequestsIsRefused() async throws {
        try await SocialWorld.run { world in
            _ = try await world.request(world.ann, world.bob)
            _ = try await world.request(world.cat, world.bob)
            let first = try await world.api.get(
                SocialPaths.friendRequests + "?limit=1", token: world.bob.accessToken)
            let cursor = try #require(try first.decode(WirePage<WireFriendRequest>.self).nextCursor)
            // dan has no part in bob's requests: bob's cursor names a request that is not his.
            let foreign = try await world.api.get(
                SocialPaths.friendRequests + "?limit=1&cursor=\(cursor)", token: world.dan.accessToken)
            #expect(foreign.status == 400)
            #expect(foreign.problem?.code == "invalid_cursor")
            let bad = try await world.api.get(SocialPaths.followers + "?limit=0", token: world.bob.accessToken)
            #expect(bad.problem?.code == "invalid_limit")
        }
    }
}

@Suite struct FollowAndBlockTests {
    @Test func followingNeedsApproval() async throws {
        try await SocialWorld.run { world in
            let follow = try await world.api.post(
                SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
            #expect(follow.status == 201)
            #expect(try world.names(await world.api.get(SocialPaths.following, token: world.ann.accessToken)).isEmpty)
            // Each side sees the waiting request by its direction; a third user sees nothing.
            let annSees = try await world.relationship(world.ann, world.bob)
            #expect(annSees.followRequestSent && !annSees.followRequestReceived && !annSees.following)
            let bobSees = try await world.relationship(world.bob, world.ann)
            #expect(bobSees.followRequestReceived && !bobSees.followRequestSent && !bobSees.followedBy)
            #expect(try await world.relationship(world.cat, world.bob).flags.allSatisfy { !$0 })
            #expect(
                try world.names(await world.api.get(SocialPaths.followRequests, token: world.bob.accessToken)) == [
                    "ann"
                ])
            #expect(
                try await world.api.post(
                    "\(SocialPaths.followRequests)/\(world.ann.id)/approve", token: world.cat.accessToken
                ).status == 404)
            #expect(
                try await world.api.post(
                    "\(SocialPaths.followRequests)/\(world.ann.id)/approve", token: world.bob.accessToken
                ).status == 204)
            #expect(
                try world.names(await world.api.get(SocialPaths.following, token: world.ann.accessToken)) == ["bob"])
            #expect(
                try world.names(await world.api.get(SocialPaths.followers, token: world.bob.accessToken)) == ["ann"])
            #expect(world.notices.kinds == ["social.follow_request", "social.follow_approved"])
            let again = try await world.api.post(
                SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
            #expect(again.problem?.code == "already_following")
            #expect(
                try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "ann"])
                    .problem?.code == "self_follow")
            // bob removes his follower
            #expect(
                try await world.api.delete("\(SocialPaths.followers)/\(world.ann.id)", token: world.bob.accessToken)
                    .status == 204)
            #expect(try world.names(await world.api.get(SocialPaths.following, token: world.ann.accessToken)).isEmpty)
            #expect(
                try await world.api.delete("\(SocialPaths.following)/\(world.bob.id)", token: world.ann.accessToken)
                    .status == 404)
        }
    }

    @Test func aRejectedOrWithdrawnRequestLeavesNoFollow() async throws {
        try await SocialWorld.run { world in
            _ = try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
            #expect(
                try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
                    .problem?.code == "follow_pending")
            #expect(
                try await world.api.post(
                    "\(SocialPaths.followRequests)/\(world.ann.id)/reject", token: world.bob.accessToken
                ).status == 204)
            #expect(
                try await world.api.post(
                    "\(SocialPaths.followRequests)/\(world.ann.id)/approve", token: world.bob.accessToken
                ).status == 404)
            _ = try await world.api.post(SocialPaths.follows, token: world.cat.accessToken, json: ["username": "bob"])
            #expect(
                try await world.api.delete("\(SocialPaths.following)/\(world.bob.id)", token: world.cat.accessToken)
                    .status == 204)
            #expect(
                try world.names(await world.api.get(SocialPaths.followRequests, token: world.bob.accessToken)).isEmpty)
        }
    }

    @Test func blockingEndsEverythingBothWaysAndStopsNewRequests() async throws {
        try await SocialWorld.run { world in
            try await world.befriend(world.ann, world.bob)
            _ = try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
            #expect(
                try await world.api.send(.PUT, "\(SocialPaths.blocks)/\(world.ann.id)", token: world.bob.accessToken)
                    .status == 204)
            #expect(try world.names(await world.api.get(SocialPaths.friends, token: world.ann.accessToken)).isEmpty)
            #expect(
                try world.names(await world.api.get(SocialPaths.followRequests, token: world.bob.accessToken)).isEmpty)
            #expect(try world.names(await world.api.get(SocialPaths.blocks, token: world.bob.accessToken)) == ["ann"])
            // ann can no longer reach bob, and is not told why
            #expect(
                try await world.api.post(
                    SocialPaths.friendRequests, token: world.ann.accessToken, json: ["username": "bob"]
                ).status == 404)
            #expect(
                try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "bob"])
                    .status == 404)
            #expect(try await world.relationship(world.ann, world.bob).flags.allSatisfy { !$0 })
            #expect(try await world.relationship(world.bob, world.ann).blocked == true)
            // mutual friends with the blocker read as with someone unknown: 200 and nobody, though cat is a
            // friend of both
            try await world.befriend(world.cat, world.ann)
            try await world.befriend(world.cat, world.bob)
            for viewer in [world.ann, world.bob] {
                let other = viewer.id == world.ann.id ? world.bob : world.ann
                let mutual = try await world.api.get(
                    "\(SocialPaths.users)/\(other.id)/mutual-friends", token: viewer.accessToken)
                let unknown = try await world.api.get(
                    "\(SocialPaths.users)/\(UUID().uuidString.lowercased())/mutual-friends", token: viewer.accessToken)
                #expect(mutual.status == 200)
                #expect(unknown.status == mutual.status)
                #expect(try world.names(mutual).isEmpty)
                #expect(try world.names(unknown).isEmpty)
            }
            #expect(
                try await world.api.send(.PUT, "\(SocialPaths.blocks)/\(world.bob.id)", token: world.bob.accessToken)
                    .status == 400)
            #expect(
                try await world.api.delete("\(SocialPaths.blocks)/\(world.ann.id)", token: world.bob.accessToken).status
                    == 204)
            #expect(
                try await world.api.delete("\(SocialPaths.blocks)/\(world.ann.id)", token: world.bob.accessToken).status
                    == 404)
            _ = try await world.request(world.ann, world.bob)
        }
    }

    @Test func otherServicesLookUpRelationshipsWithTheServiceCredential() async throws {
        try await SocialWorld.run { world in
            try await world.befriend(world.ann, world.bob)
            _ = try await world.api.post(SocialPaths.follows, token: world.ann.accessToken, json: ["username": "cat"])
            _ = try await world.api.post(
                "\(SocialPaths.followRequests)/\(world.ann.id)/approve", token: world.cat.accessToken)
            _ = try await world.api.send(.PUT, "\(SocialPaths.blocks)/\(world.ann.id)", token: world.dan.accessToken)
            let social = world.stack.direct(.social)
            let credential = [("X-Internal-Token", world.stack.internalToken)]
            #expect(
                try await social.get("\(SocialPaths.internalRelationship)?a=\(world.ann.id)&b=\(world.bob.id)").status
                    == 403)
            #expect(
                try await world.api.get("\(SocialPaths.internalRelationship)?a=\(world.ann.id)&b=\(world.bob.id)")
                    .status == 404)
            let pair = try await social.get(
                "\(SocialPaths.internalRelationship)?a=\(world.ann.id)&b=\(world.bob.id)", headers: credential)
            #expect(try pair.decode(WireRelationship.self).friends == true)
            let friends = try await social.get(
                "\(SocialPaths.internalUsers)/\(world.ann.id)/friend-ids", headers: credential)
            #expect(try friends.decode(WireUserIDs.self).ids == [world.bob.id])
            let following = try await social.get(
                "\(SocialPaths.internalUsers)/\(world.ann.id)/following-ids", headers: credential)
            #expect(try following.decode(WireUserIDs.self).ids == [world.cat.id])
            // blocks either way: dan blocked ann, so each is on the other's list; bob is on nobody's
            for (user, blocked) in [(world.ann, [world.dan.id]), (world.dan, [world.ann.id]), (world.bob, [])] {
                let ids = try await social.get(
                    "\(SocialPaths.internalUsers)/\(user.id)/blocked-ids", headers: credential)
                #expect(try ids.decode(WireUserIDs.self).ids == blocked)
            }
            let both = try await social.get(
                "\(SocialPaths.internalUsers)/\(world.ann.id)/friend-and-blocked-ids", headers: credential)
            #expect(
                try both.decode(WireFriendAndBlockedIDs.self)
                    == .init(friendIds: [world.bob.id], blockedIds: [world.dan.id]))
            let bothPath = "\(SocialPaths.internalUsers)/\(world.bob.id)/friend-and-blocked-ids"
            #expect(try await social.get(bothPath, token: world.bob.accessToken).status == 403)
            let blockedPath = "\(SocialPaths.internalUsers)/\(world.ann.id)/blocked-ids"
            #expect(try await social.get(blockedPath, token: world.ann.accessToken).status == 403)
            #expect(try await world.api.get(blockedPath, token: world.ann.accessToken).status == 404)
            let batch = try await social.send(
                .POST, SocialPaths.internalRelationships,
                json: [
                    "viewer": AnyCodable.string(world.ann.id),
                    "others": .list([world.bob.id, world.cat.id, world.dan.id]),
                ],
                headers: credential)
            let relationships = try batch.decode(WireRelationshipFacts.self).relationships
            #expect(relationships[world.bob.id]?.friends == true)
            #expect(relationships[world.cat.id]?.following == true)
            #expect(relationships[world.dan.id]?.blocked == true)
        }
    }
}

/// A string or a list of strings, for mixed JSON bodies in tests.
enum AnyCodable: Encodable, Sendable {
    case string(String)
    case list([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        }
    }
}

/// Every character a username may hold works wherever a username names someone.
@Suite struct UsernameAlphabetTests {
    /// Usernames drawn from the allowed alphabet (a-z, 0-9, '_', '.'; a letter or digit first), from a fixed seed so
    /// a failure repeats; the first ones are the shapes that broke before.
    static func usernames(count: Int) -> [String] {
        var generator = SplitMix64(seed: 0x5EED)
        let first = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let rest = first + ["_", "."]
        var names = ["bob_28x", "j.doe", "a__", "x..y", "9_.9"]
        while names.count < count {
            let length = Int.random(in: 3...30, using: &generator)
            var name = String(first.randomElement(using: &generator)!)
            while name.count < length { name.append(rest.randomElement(using: &generator)!) }
            names.append(name)
        }
        return names
    }

    @Test func friendRequestsAndFollowsFindEveryAllowedUsername() async throws {
        try await SocialWorld.run { world in
            for username in Self.usernames(count: 12) {
                let user = try await world.stack.register(username)
                let request = try await world.api.post(
                    SocialPaths.friendRequests, token: world.ann.accessToken, json: ["username": username])
                #expect(request.status == 201, "friend request to \(username): \(request.text)")
                let follow = try await world.api.post(
                    SocialPaths.follows, token: world.bob.accessToken, json: ["username": username])
                #expect((200..<300).contains(follow.status), "follow of \(username): \(follow.text)")
                #expect(try await world.relationship(world.ann, user).friendRequestSent == true, "\(username)")
            }
        }
    }

    /// Household invitations name the invitee by username, and the directory finds each one first by its exact name.
    @Test func householdInvitationsAndTheDirectoryFindEveryAllowedUsername() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann)
            for username in Self.usernames(count: 8) {
                let user = try await world.stack.register(username)
                let invited = try await world.api.post(
                    world.path(id, "/invitations"), token: world.ann.accessToken, json: ["username": username])
                #expect(invited.status == 201, "invitation of \(username): \(invited.text)")
                let found = try await world.api.get(
                    IdentityPaths.users + "?query=\(username)", token: world.ann.accessToken)
                #expect(
                    try found.decode(WirePage<WirePublicProfile>.self).items.first?.id == user.id,
                    "directory: \(username)")
            }
        }
    }

    /// Messaging's direct route takes a username: every allowed one opens a (Getaway) chat with its owner.
    @Test func aDirectConversationOpensByEveryAllowedUsername() async throws {
        try await MessagingWorld.run { world in
            for username in Self.usernames(count: 8) {
                let user = try await world.stack.register(username)
                let opened = try await world.api.post(
                    MessagingPaths.direct, token: world.ann.accessToken,
                    json: ["username": username, "product": "getaway"])
                #expect(opened.status == 201, "direct with \(username): \(opened.text)")
                #expect(try opened.decode(WireConversation.self).otherUser?.userId == user.id, "\(username)")
            }
        }
    }
}
