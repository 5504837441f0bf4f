import Testing

@testable import HouseholdService

/// Who hears of a change in a household: the controllers hand the live events their recipients.
@Suite struct LiveAudienceTests {
    @Test func eachAudienceNamesItsRecipients() {
        // given three members, ann acting
        let members = ["ann", "bob", "cat"]
        // then
        #expect(LiveAudience.everyone.recipients(members: members, actor: "ann") == ["ann", "bob", "cat"])
        #expect(LiveAudience.actor.recipients(members: members, actor: "ann") == ["ann"])
        #expect(LiveAudience.othersThanActor.recipients(members: members, actor: "ann") == ["bob", "cat"])
    }

    @Test func onlyTheActorsOwnEventsNeedNoMembers() {
        #expect(!LiveAudience.actor.needsMembers)
        #expect(LiveAudience.everyone.needsMembers && LiveAudience.othersThanActor.needsMembers)
    }
}
