import Testing

@testable import MessagingService

/// What a reaction's emoji may be: one emoji, or a `:shortcode:`.
@Suite struct ReactionsTests {
    @Test(arguments: ["👍", "👍🏽", "🇫🇷", "❤️", "👨‍👩‍👧", ":thumbsup:", ":+1:", ":party_parrot-2:"])
    func oneEmojiOrAShortcodeIsAReaction(emoji: String) throws {
        #expect(try Reactions.emoji(emoji) == emoji)
    }

    @Test func aPercentEncodedEmojiIsDecoded() throws {
        #expect(try Reactions.emoji("%F0%9F%91%8D") == "👍")
    }

    @Test(arguments: [
        "", "a", "#", "1", "👍👍", "ok", "::", ":Thumbs:", ":a b:", ":thumbsup", "<b>",
        ":" + String(repeating: "x", count: 31) + ":",
    ])
    func anythingElseIsRefusedNamingTheEmoji(emoji: String) {
        #expect(throws: MessagingError.invalidField(
            "emoji", "must be one emoji or a :shortcode: of at most 32 characters.")) { try Reactions.emoji(emoji) }
    }
}
