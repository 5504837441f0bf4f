import PlatformKit
import Testing

@testable import MessagingService

@Suite struct MessageTextTests {
    @Test func aLeadingTagNamesTheTopic() {
        #expect(MessageText.leadingTopic("#dinner where shall we go?")! == ("dinner", "where shall we go?"))
        #expect(MessageText.leadingTopic("#trip-2026\nflights booked")! == ("trip-2026", "flights booked"))
        #expect(MessageText.leadingTopic("#dinner")! == ("dinner", ""))
        #expect(MessageText.leadingTopic("no tag #here") == nil)
        #expect(MessageText.leadingTopic("# spaced") == nil)
        #expect(MessageText.leadingTopic("#dinner!") == nil)
        #expect(MessageText.leadingTopic("#" + String(repeating: "a", count: 61)) == nil)
    }

    @Test func mentionsAreUsernamesAfterAnAt() {
        #expect(MessageText.mentionedUsernames("hi @Bob and @cat_1, ask @bob.") == ["bob", "cat_1"])
        #expect(MessageText.mentionedUsernames("mail ann@example.com") == [])
        #expect(MessageText.mentionedUsernames("@al is too short, @dan.") == ["dan"])
        #expect(MessageText.mentionedUsernames("no mentions") == [])
    }

    @Test func searchQueriesAreQuotedTerms() throws {
        #expect(try SearchQuery.fts("pizza") == "\"pizza\"")
        #expect(try SearchQuery.fts("piz*") == "\"piz\" *")
        #expect(try SearchQuery.fts("  late \"pizza\" OR * ") == "\"late\" \"pizza\" \"OR\"")
        #expect(try SearchQuery.fts("e-mai* NEAR") == "\"e\" \"mai\" * \"NEAR\"")
        #expect(throws: MessagingError.invalidField("query", "must not be empty.")) { try SearchQuery.fts("   ") }
        #expect(throws: MessagingError.invalidField("query", "must contain a letter or digit.")) {
            try SearchQuery.fts("\"*^")
        }
        #expect(throws: MessagingError.invalidField("query", "must be at most 200 characters.")) {
            try SearchQuery.fts(String(repeating: "a", count: 201))
        }
    }

    @Test func snippetsAreEscapedBeforeMarking() {
        #expect(SearchQuery.highlight("<b>\u{E000}pizza\u{E001} & co") == "&lt;b&gt;<mark>pizza</mark> &amp; co")
    }
}
