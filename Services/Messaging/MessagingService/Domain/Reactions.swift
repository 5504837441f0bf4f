/// Emoji reactions on messages (Slack's and Zulip's): what an emoji may be, and how many a message holds.
enum Reactions {
    /// Distinct emoji one message may carry; a new one past this is refused (adding an existing one is not).
    static let maximumDistinct = 20
    /// Who reacted with one emoji, as listed on a message: the first this many (the count says how many in all).
    static let listedUsers = 20
    static let maximumShortcodeLength = 32

    /// The emoji of a reaction as the client typed it: one grapheme cluster that is an emoji (`👍`, `👍🏽`, `🇫🇷`), or
    /// a shortcode `:name:` of lowercase letters, digits, `_`, `+` and `-` (Slack's `:thumbsup:`), at most 32
    /// characters.
    static func emoji(_ raw: String) throws(MessagingError) -> String {
        let value = raw.removingPercentEncoding ?? raw
        if value.count == 1, let character = value.first, isEmoji(character) { return value }
        let name = value.dropFirst().dropLast()
        guard value.count >= 3, value.count <= maximumShortcodeLength, value.hasPrefix(":"), value.hasSuffix(":"),
            name.unicodeScalars.allSatisfy({ shortcodeScalars.contains($0) })
        else { throw .invalidField("emoji", "must be one emoji or a :shortcode: of at most 32 characters.") }
        return value
    }

    private static let shortcodeScalars = Set("abcdefghijklmnopqrstuvwxyz0123456789_+-".unicodeScalars)

    /// An emoji shown as a picture: a scalar with emoji presentation, or one made so by U+FE0F, a skin tone, a
    /// keycap or a joiner (a bare `#` or `1` has the emoji property but is text).
    private static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.properties.isEmoji else { return false }
        return first.properties.isEmojiPresentation || scalars.count > 1
    }
}
