import Foundation

/// Turns what a user typed into an FTS5 query that cannot be a syntax error: each word becomes a quoted
/// phrase (all must match); a word typed with a trailing `*` matches as a prefix. Prefixes are opt-in: FTS5
/// merges every matching term's list before the first result, ten times the cost of a common word.
enum SearchQuery {
    static let maximumLength = 200
    static let maximumTerms = 10

    static func fts(_ input: String) throws(MessagingError) -> String {
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
                (part, word.hasSuffix("*") && index == parts.count - 1)
            }
        }
        guard !terms.isEmpty else { throw .invalidField("query", "must contain a letter or digit.") }
        return terms.map { term, prefix in prefix ? "\"\(term)\" *" : "\"\(term)\"" }.joined(separator: " ")
    }
}
