import Testing

@testable import MessagingService

/// The notification rule (issue 4), every follow/mute/mention combination in a table.
@Suite struct NotificationRuleTests {
    typealias Row = (
        kind: ConversationKind, muted: Bool, policy: TopicPolicy, mentioned: Bool, expected: NotificationReason?
    )

    static let table: [Row] = [
        // direct: every message notifies unless the conversation is muted
        (.direct, false, .inherit, false, .message),
        (.direct, false, .inherit, true, .mention),
        (.direct, true, .inherit, false, nil),
        (.direct, true, .inherit, true, nil),
        // group, topic without a choice: only mentions
        (.group, false, .inherit, false, nil),
        (.group, false, .inherit, true, .mention),
        // group, followed topic: everything
        (.group, false, .followed, false, .message),
        (.group, false, .followed, true, .mention),
        // group, muted topic: never, mention or not
        (.group, false, .muted, false, nil),
        (.group, false, .muted, true, nil),
        // muted group: never, even a followed topic or a mention
        (.group, true, .inherit, false, nil),
        (.group, true, .inherit, true, nil),
        (.group, true, .followed, false, nil),
        (.group, true, .followed, true, nil),
        (.group, true, .muted, true, nil),
    ]

    @Test(arguments: table.indices)
    func ruleMatchesTheTable(_ index: Int) {
        let row = Self.table[index]
        let recipient = NotificationRule.Recipient(
            isSender: false, conversationMuted: row.muted, topicPolicy: row.policy, mentioned: row.mentioned)
        #expect(NotificationRule.reason(kind: row.kind, recipient) == row.expected, "row \(index): \(row)")
    }

    @Test func theSenderIsNeverNotified() {
        for kind in [ConversationKind.direct, .group] {
            for policy in TopicPolicy.allCases {
                let sender = NotificationRule.Recipient(
                    isSender: true, conversationMuted: false, topicPolicy: policy, mentioned: true)
                #expect(NotificationRule.reason(kind: kind, sender) == nil)
            }
        }
    }
}
