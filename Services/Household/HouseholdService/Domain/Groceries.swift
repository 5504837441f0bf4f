import Foundation

/// The household grocery list: personal (visible) and communal items merged by name.
enum Groceries {
    /// The name folded so that case, accents, spacing and an English plural do not matter: "Eggs", "egg " and
    /// "EGGS" make one key, as do "tomatoes"/"tomato", "berries"/"berry", "boxes"/"box", "cookies"/"cookie".
    /// Only the last word is folded ("paper towels" is "paper towel"). The key is compared, never shown.
    static func mergeKey(_ name: String) -> String {
        var words = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = words.popLast() else { return "" }
        return (words + [singular(last)]).joined(separator: " ")
    }

    private static func singular(_ word: String) -> String {
        var stem = word
        if stem.count > 4, stem.hasSuffix("ies") {
            stem = String(stem.dropLast(3)) + "i"
        } else if ["ses", "xes", "zes", "ches", "shes", "oes"].contains(where: stem.hasSuffix), stem.count > 3 {
            stem = String(stem.dropLast(2))
        } else if stem.hasSuffix("s"), stem.count > 2, !["ss", "us", "is"].contains(where: stem.hasSuffix) {
            stem = String(stem.dropLast())
        }
        // "apple"/"apples", "cookie"/"cookies" and "berry"/"berries" must meet: drop a final e, y becomes i.
        if stem.count > 2, stem.hasSuffix("e") { stem = String(stem.dropLast()) }
        if stem.count > 1, stem.hasSuffix("y") { stem = String(stem.dropLast()) + "i" }
        return stem
    }

    /// One line of the household list.
    struct Line: Sendable, Equatable {
        var key: String
        /// The name of the earliest item on the line.
        var name: String
        var communalQuantity: Int
        /// Member -> the quantity they want for themselves.
        var wantedBy: [String: Int]
        var notes: [String]
        var itemIDs: [String]
        var quantity: Int { communalQuantity + wantedBy.values.reduce(0, +) }
    }

    /// Merges the communal items and the members' visible personal items (oldest first) into lines, in
    /// the order their first item was added. Items of people no longer in `members` are left out.
    static func householdList(_ items: [GroceryItemRecord], members: Set<String>) -> [Line] {
        var lines: [Line] = []
        var index: [String: Int] = [:]
        for item in items where item.visible && (item.ownerId.map(members.contains) ?? true) {
            if index[item.mergeKey] == nil {
                index[item.mergeKey] = lines.count
                lines.append(
                    Line(
                        key: item.mergeKey, name: item.name, communalQuantity: 0, wantedBy: [:], notes: [], itemIDs: [])
                )
            }
            let position = index[item.mergeKey] ?? 0
            if let owner = item.ownerId {
                lines[position].wantedBy[owner, default: 0] += item.quantity
            } else {
                lines[position].communalQuantity += item.quantity
            }
            if let note = item.note { lines[position].notes.append(note) }
            lines[position].itemIDs.append(item.id)
        }
        return lines
    }
}

extension Groceries {
    /// What a completed trip bought: each pick (a line of the household `list` by its merge key, with the price
    /// entered) as a trip line, and the items those lines take off the lists. Throws naming `items` when nothing was
    /// picked or a pick is not on the list.
    static func purchase(_ picks: [(key: String, price: Int?)], from list: [Line]) throws
        -> (bought: [TripLine], itemIDs: [String])
    {
        guard !picks.isEmpty else {
            throw HouseholdError.invalidField("items", "must name the items bought, or tick them off first.")
        }
        let lines = Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var bought: [TripLine] = []
        var itemIDs: [String] = []
        for pick in picks {
            guard let line = lines[pick.key] else {
                throw HouseholdError.invalidField("items", "every item must be on the household list.")
            }
            bought.append(
                TripLine(
                    name: line.name, price: pick.price, communalQuantity: line.communalQuantity,
                    wantedBy: line.wantedBy))
            itemIDs += line.itemIDs
        }
        return (bought, itemIDs)
    }
}
