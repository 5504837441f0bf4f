import Testing

@testable import SocialService

@Suite struct SocialRulesTests {
    @Test func friendRequestsAreRefusedForTheRightReasons() {
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "a", Relationship())?.code == "self_request")
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(blocked: true))?.statusCode == 404)
        #expect(
            SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friends: true))?.code == "already_friends")
        #expect(
            SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friendRequestSent: true))?.code
                == "request_pending")
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friendRequestReceived: true)) == nil)
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship()) == nil)
    }

    @Test func followsAreRefusedForTheRightReasons() {
        #expect(SocialRules.refuseFollow(from: "a", to: "a", Relationship())?.code == "self_follow")
        #expect(
            SocialRules.refuseFollow(from: "a", to: "b", Relationship(following: true))?.code == "already_following")
        #expect(
            SocialRules.refuseFollow(from: "a", to: "b", Relationship(followRequested: true))?.code == "follow_pending")
        #expect(SocialRules.refuseFollow(from: "a", to: "b", Relationship(blocked: true))?.statusCode == 404)
    }

    @Test func suggestionsRankByMutualFriendsThenId() {
        let ranked = SocialRules.suggestions(
            me: "me", friends: ["f1", "f2", "f3"],
            friendsOfFriends: [
                ("f1", "x"), ("f2", "x"), ("f3", "x"), ("f1", "y"), ("f2", "y"), ("f1", "a"), ("f1", "me"),
                ("f1", "f2"),
                ("f2", "blocked"), ("stranger", "z"),
            ],
            excluded: ["blocked"])
        #expect(ranked.map(\.userID) == ["x", "y", "a"])
        #expect(ranked.map(\.mutualFriends) == [3, 2, 1])
    }
}
