import Foundation

/// What a search narrows to besides its words (Slack's and Zulip's operators): `from:username`, `in:topic`,
/// `has:image`, `before:YYYY-MM-DD` and `after:YYYY-MM-DD`, each value bare or in double quotes.
struct SearchFilter: Sendable, Equatable {
    /// The sender's username, as typed (`from:`).
    var from: String?
    /// The topic's name (`in:`), ASCII case-insensitively.
    var topic: String?
    /// Only messages with at least one image (`has:image`).
    var hasImage = false
    /// Sent before the start of this day, UTC (`before:`).
    var before: Date?
    /// Sent after the end of this day, UTC (`after:`, Slack's meaning: the day itself is not included).
    var after: Date?
    /// `from:` resolved to the sender's id by the caller.
    var senderID: String?

    static let none = SearchFilter()
}

/// Splits what a user typed into the words to search for and the operators around them.
enum SearchOperators {
    static let names = ["from", "in", "has", "before", "after"]

    /// The words (for ``SearchQuery/terms(_:)``) and the filter. A token `name:value` whose name is letters is an
    /// operator, refused when unknown (quote it to search for it as words); a quoted token is words.
    static func parse(_ input: String) throws(MessagingError) -> (text: String, filter: SearchFilter) {
        guard input.count <= SearchQuery.maximumLength else {
            throw .invalidField("query", "must be at most \(SearchQuery.maximumLength) characters.")
        }
        var words: [String] = []
        var filter = SearchFilter()
        for token in tokens(input) {
            guard !token.quoted, let colon = token.text.firstIndex(of: ":") else {
                words.append(token.text)
                continue
            }
            let name = token.text[..<colon].lowercased()
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else {
                words.append(token.text)
                continue
            }
            let value = String(token.text[token.text.index(after: colon)...])
            guard names.contains(name) else {
                throw .invalidField(
                    "query", "\(name): is not a search operator; use from:, in:, has:, before: or after:.")
            }
            guard !value.isEmpty, value.count <= MessageText.maximumTopicLength else {
                throw .invalidField(
                    name, "must name what to search for, at most \(MessageText.maximumTopicLength) characters.")
            }
            switch name {
            case "from": filter.from = value.lowercased()
            case "in": filter.topic = value
            case "has":
                guard value.lowercased() == "image" else { throw .invalidField("has", "must be image.") }
                filter.hasImage = true
            case "before": filter.before = try day(value, field: "before")
            default: filter.after = try day(value, field: "after").addingTimeInterval(86_400)
            }
        }
        return (words.joined(separator: " "), filter)
    }

    /// A token of the input: whitespace separates tokens except inside double quotes, which are dropped.
    private static func tokens(_ input: String) -> [(text: String, quoted: Bool)] {
        var tokens: [(text: String, quoted: Bool)] = []
        var current = ""
        var quoting = false
        var quotedWord = false
        for character in input {
            if character == "\"" {
                // A quote opening a token makes it words; one after `name:` quotes the operator's value.
                if !quoting, current.isEmpty { quotedWord = true }
                quoting.toggle()
            } else if character.isWhitespace, !quoting {
                if !current.isEmpty { tokens.append((current, quotedWord)) }
                current = ""
                quotedWord = false
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append((current, quotedWord)) }
        return tokens
    }

    /// The start of a day `YYYY-MM-DD`, UTC.
    private static func day(_ value: String, field: String) throws(MessagingError) -> Date {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { throw .invalidField(field, "must be a date YYYY-MM-DD.") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: year, month: month, day: dayOfMonth)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            throw .invalidField(field, "must be a date YYYY-MM-DD.")
        }
        return date
    }
}
