import Foundation
import Testing

@testable import MessagingService

/// The operators of a search (`from:`, `in:`, `has:`, `before:`, `after:`) and the words around them.
@Suite struct SearchOperatorsTests {
    func day(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text + "T00:00:00Z") }

    @Test func operatorsAreTakenOutAndTheWordsKept() throws {
        let (text, filter) = try SearchOperators.parse(
            #"pizza from:Bob in:"weekend plans" after:2026-11-01 before:2026-11-20 "from:x" 10:30"#)
        #expect(text == "pizza from:x 10:30")
        #expect(filter.from == "bob")
        #expect(filter.topic == "weekend plans")
        #expect(filter.after == day("2026-11-02"), "after a day is from the next day on (Slack)")
        #expect(filter.before == day("2026-11-20"))
        #expect(!filter.hasImage)
        #expect(try SearchOperators.parse("pizza has:image").filter.hasImage)
        #expect(try SearchOperators.parse("just words").filter == .none)
    }

    @Test func anUnknownOperatorIsRefusedByName() {
        #expect(
            throws: MessagingError.invalidField(
                "query", "to: is not a search operator; use from:, in:, has:, before: or after:.")
        ) { try SearchOperators.parse("pizza to:bob") }
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "yesterday", "2026-1-1", "20261101"])
    func aBadDateIsRefusedNamingItsOperator(date: String) {
        #expect(throws: MessagingError.invalidField("before", "must be a date YYYY-MM-DD.")) {
            try SearchOperators.parse("pizza before:\(date)")
        }
        #expect(throws: MessagingError.invalidField("after", "must be a date YYYY-MM-DD.")) {
            try SearchOperators.parse("pizza after:\(date)")
        }
    }

    @Test func hasTakesImageAndEveryOperatorAValue() {
        #expect(throws: MessagingError.invalidField("has", "must be image.")) {
            try SearchOperators.parse("pizza has:video")
        }
        #expect(throws: MessagingError.self) { try SearchOperators.parse("pizza from:") }
    }
}

/// Typing events: at most one per member and conversation every 3 seconds.
@Suite struct TypingThrottleTests {
    @Test func oneTypingPerMemberAndConversationEveryThreeSeconds() {
        var throttle = TypingThrottle()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var passed: [Bool] = []
        for (userID, conversationID, seconds) in [
            ("a", "c", 0.0), ("a", "c", 2.9), ("a", "d", 1), ("b", "c", 1), ("a", "c", 3), ("a", "c", 4),
        ] {
            let key = TypingThrottle.Key(userID: userID, conversationID: conversationID)
            passed.append(throttle.admit(key, now: now + seconds))
        }
        #expect(passed == [true, false, true, true, true, false])
    }
}
