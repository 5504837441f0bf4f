import PlatformKit

/// Turns what a user typed into an FTS5 query that cannot be a syntax error: each word becomes a quoted
/// phrase (all must match), the last one also matches as a prefix, since people search while typing.
enum SearchQuery {
    static let maximumLength = 200
    static let maximumTerms = 10

    static func fts(_ input: String) throws -> String {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Problem.invalidField("query", "must not be empty.") }
        guard trimmed.count <= maximumLength else {
            throw Problem.invalidField("query", "must be at most \(maximumLength) characters.")
        }
        // The tokenizer splits on anything that is not a letter or digit; do the same so that quoting is exact.
        let terms = trimmed.split { !($0.isLetter || $0.isNumber) }.prefix(maximumTerms).map(String.init)
        guard !terms.isEmpty else { throw Problem.invalidField("query", "must contain a letter or digit.") }
        return terms.enumerated().map { index, term in
            index == terms.count - 1 ? "\"\(term)\" *" : "\"\(term)\""
        }.joined(separator: " ")
    }
}
