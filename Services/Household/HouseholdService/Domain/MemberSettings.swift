import Foundation

/// A member's own settings, kept with their account (not with one household): when their month-end reminder comes
/// and the bulletin board's background.
struct MemberSettings: Sendable, Equatable {
    /// Days before the month's last day (0 = on it), 0 to 7.
    var reminderDaysBefore = 0
    /// The household's local hour from which it may come, 0 to 23.
    var reminderHour = 0
    /// A preset name or a `#RRGGBB` colour; nil for the app's default.
    var boardBackground: String?

    /// The backgrounds an app draws itself; any other must be a `#RRGGBB` colour.
    static let presetBackgrounds: Set<String> = ["cork", "chalkboard", "paper", "linen", "plain"]

    /// Checks each given value, naming the field that breaks its rule.
    static func checked(reminderDaysBefore: Int?, reminderHour: Int?, boardBackground: String?) throws {
        if let days = reminderDaysBefore, !(0...7).contains(days) {
            throw HouseholdError.invalidField("reminderDaysBefore", "must be from 0 to 7.")
        }
        if let hour = reminderHour, !(0...23).contains(hour) {
            throw HouseholdError.invalidField("reminderHour", "must be from 0 to 23.")
        }
        if let background = boardBackground, !background.isEmpty, !presetBackgrounds.contains(background),
            !isColour(background)
        {
            throw HouseholdError.invalidField(
                "boardBackground",
                "must be one of \(presetBackgrounds.sorted().joined(separator: ", ")) or a #RRGGBB colour.")
        }
    }

    static func isColour(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#")
            && utf8.dropFirst().allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
            }
    }
}
