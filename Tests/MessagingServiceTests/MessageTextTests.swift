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

    /// PostgreSQL's query of the same terms: all of them, prefixes as `:*`, nothing the user typed as syntax.
    @Test func searchQueriesForPostgresAreTheSameTerms() throws {
        #expect(SearchQuery.tsquery(try SearchQuery.terms("e-mai* NEAR")) == "'e' & 'mai':* & 'NEAR'")
        #expect(SearchQuery.tsquery(try SearchQuery.terms("  it's & !pizza | ")) == "'it' & 's' & 'pizza'")
    }

    /// The snippets made for PostgreSQL: 24 words from the first match (or fewer words before it near the end),
    /// matches marked case-insensitively, "…" where the text was cut.
    @Test func snippetsShowTheWordsAroundTheFirstMatch() {
        let text = (1...40).map { "w\($0)" }.joined(separator: ", ")
        let late = SearchQuery.snippet(text, terms: [SearchQuery.Term(word: "W30", prefix: false)])
        #expect(late.hasPrefix("…w17, ") && late.hasSuffix(", w40") && late.contains("\u{E000}w30\u{E001}"))
        let early = SearchQuery.snippet(text, terms: [SearchQuery.Term(word: "w1", prefix: false)])
        #expect(early.hasPrefix("\u{E000}w1\u{E001}, w2, ") && early.hasSuffix(", w24…"))
        let prefixed = SearchQuery.snippet("Pizza, pizzeria!", terms: [SearchQuery.Term(word: "piz", prefix: true)])
        #expect(prefixed == "\u{E000}Pizza\u{E001}, \u{E000}pizzeria\u{E001}!")
    }

    @Test func snippetsAreEscapedBeforeMarking() {
        #expect(SearchQuery.highlight("<b>\u{E000}pizza\u{E001} & co") == "&lt;b&gt;<mark>pizza</mark> &amp; co")
    }
}
