import Testing

@testable import SocialService

@Suite struct SocialRulesTests {
    @Test func friendRequestsAreRefusedForTheRightReasons() {
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "a", Relationship()) == .selfRequest)
        #expect(
            SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(blocked: true)) == .notFound("The user"))
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friends: true)) == .alreadyFriends)
        #expect(
            SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friendRequestSent: true))
                == .requestPending)
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship(friendRequestReceived: true)) == nil)
        #expect(SocialRules.refuseFriendRequest(from: "a", to: "b", Relationship()) == nil)
    }

    @Test func followsAreRefusedForTheRightReasons() {
        #expect(SocialRules.refuseFollow(from: "a", to: "a", Relationship()) == .selfFollow)
        #expect(SocialRules.refuseFollow(from: "a", to: "b", Relationship(following: true)) == .alreadyFollowing)
        #expect(SocialRules.refuseFollow(from: "a", to: "b", Relationship(followRequestSent: true)) == .followPending)
        #expect(SocialRules.refuseFollow(from: "a", to: "b", Relationship(blocked: true)) == .notFound("The user"))
    }

    @Test func blocksOfOneselfAreRefusedAndTheBlockedSideSeesNothing() {
        #expect(SocialRules.refuseBlock(by: "a", of: "a") == .selfBlock)
        #expect(SocialRules.refuseBlock(by: "a", of: "b") == nil)
        #expect(Relationship(following: true, blocked: true).shownToViewer == Relationship())
        #expect(
            Relationship(blocking: true, blocked: true).shownToViewer == Relationship(blocking: true, blocked: true))
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
