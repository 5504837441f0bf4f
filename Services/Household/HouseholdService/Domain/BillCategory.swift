/// What a bill was for, from a fixed list like Splitwise's; a bill without one is `other`.
enum BillCategory {
    static let other = "other"
    /// Every category, in the order a client offers them.
    static let all = [
        "groceries", "rent", "utilities", "internet", "household_supplies", "transport", "eating_out",
        "entertainment", other,
    ]

    /// The category sent in `field`; `other` when none was.
    static func parse(_ text: String?, field: String = "category") throws -> String {
        guard let text else { return other }
        guard all.contains(text) else {
            throw HouseholdError.invalidField(field, "must be one of " + all.joined(separator: ", ") + ".")
        }
        return text
    }
}
