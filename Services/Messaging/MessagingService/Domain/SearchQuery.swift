import Foundation
import PlatformKit

/// Turns what a user typed into search terms that cannot be a syntax error in either store's query language: each
/// word is a term (all must match); a word typed with a trailing `*` matches as a prefix. Prefixes are opt-in: the
/// full-text index merges every matching term's list before the first result, ten times the cost of a common word.
enum SearchQuery {
    static let maximumLength = 200
    static let maximumTerms = 10

    /// How many of the newest matches in the caller's conversations a search ranks. Ranking every match
    /// costs time in proportion to the word's frequency (the rank and the membership check visit each match), so
    /// a common word over a million messages would take a second; with this bound every search costs about
    /// the same, and a word with fewer matches is ranked exactly.
    static let window = 200

    /// One word to match: letters and digits only, so that no store's query syntax can be typed.
    struct Term: Sendable, Equatable {
        var word: String
        var prefix: Bool
    }

    static func terms(_ input: String) throws(MessagingError) -> [Term] {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidField("query", "must not be empty.") }
        guard trimmed.count <= maximumLength else {
            throw .invalidField("query", "must be at most \(maximumLength) characters.")
        }
        // The tokenizer splits on anything that is not a letter or digit; do the same so that quoting is exact.
        let words = trimmed.split(whereSeparator: \.isWhitespace).prefix(maximumTerms)
        let terms = words.flatMap { word in
            let parts = word.split { !($0.isLetter || $0.isNumber) }.map(String.init)
            // Only the word's last part can be the prefix: "e-mai*" is "e" and "mai*".
            return parts.enumerated().map { index, part in
                Term(word: part, prefix: word.hasSuffix("*") && index == parts.count - 1)
            }
        }
        guard !terms.isEmpty else { throw .invalidField("query", "must contain a letter or digit.") }
        return terms
    }

    /// The FTS5 query of what the user typed (SQLite): each term a quoted phrase.
    static func fts(_ input: String) throws(MessagingError) -> String { fts(try terms(input)) }

    static func fts(_ terms: [Term]) -> String {
        terms.map { $0.prefix ? "\"\($0.word)\" *" : "\"\($0.word)\"" }.joined(separator: " ")
    }

    /// The `tsquery` of the terms (PostgreSQL, `to_tsquery('simple', ...)`): all terms, prefixes as `:*`. Terms are
    /// letters and digits only, so quoting each one is exact.
    static func tsquery(_ terms: [Term]) -> String {
        terms.map { "'\($0.word)'" + ($0.prefix ? ":*" : "") }.joined(separator: " & ")
    }

    /// The words of `text` around its first match of `terms`, the matches marked with U+E000 and U+E001 and "…" where
    /// the text was cut: FTS5's `snippet` for a store that has none (PostgreSQL's `ts_headline` drops what its parser
    /// takes for HTML tags, and reads words by the server's locale). Words are runs of letters and digits, as the
    /// terms are; a word matches a term case-insensitively, a prefix term any word it starts.
    static func snippet(_ text: String, terms: [Term], words: Int = 24) -> String {
        var tokens: [Range<String.Index>] = []
        var start: String.Index?
        for index in text.indices {
            if text[index].isLetter || text[index].isNumber {
                if start == nil { start = index }
            } else if let wordStart = start {
                tokens.append(wordStart..<index)
                start = nil
            }
        }
        if let start { tokens.append(start..<text.endIndex) }
        let folded = terms.map { ($0.word.lowercased(), $0.prefix) }
        func matches(_ token: Range<String.Index>) -> Bool {
            let word = text[token].lowercased()
            return folded.contains { term, prefix in prefix ? word.hasPrefix(term) : word == term }
        }
        let first = tokens.firstIndex(where: matches) ?? 0
        let from = min(first, max(tokens.count - words, 0))
        let to = min(from + words, tokens.count)
        var snippet = from > 0 ? "…" : ""
        var position = from > 0 ? tokens[from].lowerBound : text.startIndex
        for token in tokens[from..<to] where matches(token) {
            snippet += text[position..<token.lowerBound] + "\u{E000}" + text[token] + "\u{E001}"
            position = token.upperBound
        }
        snippet += text[position..<(to < tokens.count ? tokens[to - 1].upperBound : text.endIndex)]
        return to < tokens.count ? snippet + "…" : snippet
    }

    /// A snippet whose matches are marked with the private-use characters U+E000 and U+E001, as HTML: the text
    /// escaped, each match in `<mark>`.
    static func highlight(_ snippet: String) -> String {
        Markup.escaped(snippet).replacingOccurrences(of: "\u{E000}", with: "<mark>")
            .replacingOccurrences(of: "\u{E001}", with: "</mark>")
    }
}
