import Foundation

/// How place names are compared: case and accents folded, typos measured by edit distance.
enum PlaceMatching {
    /// Lower-cased, without diacritics, white space collapsed ("São  Paulo" -> "sao paulo").
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of a folded query as FTS5 prefix terms (`"san"* "fran"*`); letters and digits only, so the
    /// user's text can never be read as FTS5 syntax.
    static func prefixQuery(_ folded: String) -> String? {
        let words = folded.split { !$0.isLetter && !$0.isNumber }
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// The distinct trigrams of a folded query's words, in order, for the typo fallback (letters and digits only, so
    /// a trigram quoted is an FTS5 phrase whatever the user typed).
    static func trigrams(ofWords folded: String) -> [String] {
        var grams: [String] = []
        for word in words(folded) {
            for gram in trigrams(word) where !grams.contains(gram) { grams.append(gram) }
        }
        return grams
    }

    /// The words of a folded text (runs of letters and digits): what FTS5's unicode61 tokenizer indexes of a name,
    /// and the terms of a query.
    static func words(_ folded: String) -> [String] {
        folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Every run of three characters of `text`, spaces included, as FTS5's trigram tokenizer indexes a folded name.
    static func trigrams(_ text: String) -> [String] {
        let characters = Array(text)
        guard characters.count >= 3 else { return [] }
        return (0...(characters.count - 3)).map { String(characters[$0..<$0 + 3]) }
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// How many typos a query of this length may carry and still match.
    static func tolerance(_ query: String) -> Int {
        switch query.count {
        case ..<4: 0
        case ..<7: 1
        case ..<11: 2
        default: 3
        }
    }

    /// The distance between a query and a name, allowing the query to be a typed prefix of the name.
    static func typoDistance(query: String, name: String) -> Int {
        let whole = editDistance(query, name)
        guard name.count > query.count + 1 else { return whole }
        let prefix = String(name.prefix(query.count))
        return min(whole, editDistance(query, prefix) + 1)
    }
}
