import ServiceKit
import Testing

@testable import MessagingService

/// Bringing people into a group: the list named, who is new, whom the inviter may bring in, and the answer.
@Suite struct GroupInvitationTests {
    let friend = SocialFacts(friends: true, blocked: false)
    let stranger = SocialFacts(friends: false, blocked: false)
    let blocked = SocialFacts(friends: false, blocked: true)

    @Test func namesEachInviteeOnceWithoutTheInviter() throws {
        let invitation = try GroupInvitation(userIDs: ["b", "me", "c", "b"], by: "me")
        #expect(invitation.invitees == ["b", "c"])
    }

    @Test func someoneBesidesTheInviterMustBeNamed() {
        #expect(throws: MessagingError.invalidField("userIds", "name at least one friend.")) {
            try GroupInvitation(userIDs: ["me", "me"], by: "me")
        }
    }

    @Test func atMostOneHundredPerRequest() {
        let ids = (0...MessagingLimits.maximumInvitesPerRequest).map { "u\($0)" }
        #expect(throws: MessagingError.invalidField("userIds", "at most 100 per request.")) {
            try GroupInvitation(userIDs: ids, by: "me")
        }
    }

    @Test func onlyThoseNotInTheGroupAreNew() throws {
        // given
        let invitation = try GroupInvitation(userIDs: ["a", "b", "c"], by: "me")
        // when
        let newcomers = try invitation.newcomers(members: ["me", "b"])
        // then
        #expect(newcomers == ["a", "c"])
    }

    @Test func whenNobodyIsNewTheErrorNamesEveryoneNamed() throws {
        let invitation = try GroupInvitation(userIDs: ["a", "b"], by: "me")
        #expect(throws: MessagingError.alreadyMembers(["a", "b"])) {
            try invitation.newcomers(members: ["me", "a", "b"])
        }
    }

    @Test func theAnswerNamesThoseNotAddedInTheOrderNamed() throws {
        let invitation = try GroupInvitation(userIDs: ["a", "b", "c"], by: "me")
        #expect(invitation.alreadyMembers(added: ["c", "a"]) == ["b"])
        #expect(invitation.alreadyMembers(added: []) == ["a", "b", "c"])
    }

    @Test func weGroupAdmitsFriendsOnlyAndNamesTheOthers() throws {
        let facts = ["a": friend, "b": stranger]
        #expect(try GroupInvitation.admitted(["a"], in: .wegroup, facts: facts) == ["a"])
        #expect(throws: MessagingError.notFriends(["b", "c"])) {
            try GroupInvitation.admitted(["a", "b", "c"], in: .wegroup, facts: facts)
        }
    }

    @Test func getawayAdmitsAnyoneNotBlockedAndHidesTheBlocked() throws {
        #expect(try GroupInvitation.admitted(["a", "b"], in: .getaway, facts: ["a": stranger]) == ["a", "b"])
        #expect(throws: MessagingError.notFound("The user")) {
            try GroupInvitation.admitted(["a", "b"], in: .getaway, facts: ["a": stranger, "b": blocked])
        }
    }

    @Test func aRoleIsAdminOrMember() throws {
        #expect(try GroupRules.role("admin") == "admin")
        #expect(throws: MessagingError.invalidField("role", "must be admin or member.")) {
            try GroupRules.role("owner")
        }
    }
}

/// Where a page of messages starts and which topic it reads.
@Suite struct MessageQueryTests {
    @Test func anchorsByNameOrMessageID() throws {
        #expect(try MessageQuery.anchor(nil) == .newest)
        #expect(try MessageQuery.anchor("oldest") == .oldest)
        #expect(try MessageQuery.anchor("first_unread") == .firstUnread)
        #expect(try MessageQuery.anchor("42") == .around(42))
        let refused = MessagingError.invalidField("anchor", "must be newest, oldest, first_unread or a message id.")
        #expect(throws: refused) { try MessageQuery.anchor("0") }
    }

    @Test func aTopicIDIsPositive() throws {
        #expect(try MessageQuery.topicID(nil) == nil)
        #expect(try MessageQuery.topicID("7") == 7)
        for bad: Substring in ["0", "-3", "x", "99999999999999999999"] {
            #expect(throws: MessagingError.invalidField("topicId", "must be a topic's id.")) {
                try MessageQuery.topicID(bad)
            }
        }
    }
}
