import Foundation
import PlatformKit

/// What a message's text says about where it belongs and whom it names.
enum MessageText {
    /// The longest message, in characters (Zulip's limit).
    static let maximumLength = 10_000
    /// The longest topic name, in characters.
    static let maximumTopicLength = 60

    /// Splits a leading `#topic` off the text: `"#dinner where?"` is `("dinner", "where?")`. A tag is a `#`
    /// followed by letters, digits, `-`, `_` or `.`, then white space or the end; anything else is no tag.
    static func leadingTopic(_ text: String) -> (topic: String, rest: String)? {
        guard text.hasPrefix("#") else { return nil }
        let body = text.dropFirst()
        let name = body.prefix { isTagCharacter($0) }
        guard !name.isEmpty, name.count <= maximumTopicLength else { return nil }
        let rest = body.dropFirst(name.count)
        guard rest.isEmpty || rest.first?.isWhitespace == true else { return nil }
        return (String(name), rest.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The lower-cased usernames named as `@username` (a-z, 0-9, `_`, `.`), each once, in order of appearance.
    /// An `@` inside a word (an e-mail address) names nobody.
    static func mentionedUsernames(_ text: String) -> [String] {
        guard text.contains("@") else { return [] }
        var names: [String] = []
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "@", !(previous.isLetter || previous.isNumber) {
                let start = text.index(after: index)
                var end = start
                while end < text.endIndex, isUsernameCharacter(text[end]) { end = text.index(after: end) }
                // A trailing dot ends the sentence, not the name.
                var name = text[start..<end].lowercased()
                while name.hasSuffix(".") { name.removeLast() }
                if (3...30).contains(name.count), !names.contains(name) { names.append(name) }
                index = end
                previous = "@"
                continue
            }
            previous = character
            index = text.index(after: index)
        }
        return names
    }

    private static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_" || character == "."
    }

    private static func isUsernameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == ".")
    }

    /// The first line of the text, shortened for a preview or a notice.
    static func preview(_ text: String, length: Int = 100) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= length ? flat : String(flat.prefix(length - 1)) + "…"
    }
}
