/// Whose a pin is, relative to the viewer.
enum PinCategory: String, Codable, Sendable, CaseIterable {
    case own, friend, other

    /// Getaway's defaults: red for mine, blue for friends', green for everyone else's.
    var defaultColor: String {
        switch self {
        case .own: "#e53935"
        case .friend: "#1e88e5"
        case .other: "#43a047"
        }
    }
}

/// A viewer's colours: per category, with per-pin choices on top.
struct ColorScheme: Sendable, Equatable {
    var own: String?
    var friend: String?
    var other: String?
    var pins: [Int64: String] = [:]

    func color(of category: PinCategory, pin: Int64? = nil) -> String {
        if let pin, let chosen = pins[pin] { return chosen }
        let chosen: String? =
            switch category {
            case .own: own
            case .friend: friend
            case .other: other
            }
        return chosen ?? category.defaultColor
    }

    /// A colour as `#rrggbb` (lower-cased); anything else is refused naming the field.
    static func validate(_ value: String, field: String) throws(GeoError) -> String {
        let color = value.lowercased()
        guard color.count == 7, color.first == "#", color.dropFirst().allSatisfy(\.isHexDigit) else {
            throw .invalidField(field, "must be a colour as #rrggbb.")
        }
        return color
    }
}
