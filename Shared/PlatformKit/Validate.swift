import Foundation

/// Input checks shared by every service; each failure is a 400 ``Problem`` naming the field.
public enum Validate {
    /// Trims surrounding white space, rejects control characters, and checks the length in characters.
    public static func text(_ value: String, field: String, min: Int = 1, max: Int) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.unicodeScalars.contains(where: isDisallowedControl) else {
            throw Problem.invalidField(field, "must not contain control characters.")
        }
        guard trimmed.count >= min else {
            throw Problem.invalidField(field, min == 1 ? "must not be empty." : "must be at least \(min) characters.")
        }
        guard trimmed.count <= max else { throw Problem.invalidField(field, "must be at most \(max) characters.") }
        return trimmed
    }

    /// Like ``text(_:field:min:max:)`` for an optional field; an empty string becomes `nil`.
    public static func optionalText(_ value: String?, field: String, max: Int) throws -> String? {
        guard let value else { return nil }
        let checked = try text(value, field: field, min: 0, max: max)
        return checked.isEmpty ? nil : checked
    }

    /// A lower-cased e-mail address of plausible shape (one `@`, a dot in the domain, at most 254 characters).
    public static func email(_ value: String, field: String = "email") throws -> String {
        let email = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || isDisallowedControl($0) })
        else {
            throw Problem.invalidField(field, "is not a valid e-mail address.")
        }
        return email
    }

    /// A username: 3-30 characters of a-z, 0-9, `_` and `.`, starting with a letter or digit.
    /// Usernames are unique case-insensitively, so the canonical form is lower-cased.
    public static func username(_ value: String, field: String = "username") throws -> String {
        let username = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard (3...30).contains(username.count) else {
            throw Problem.invalidField(field, "must be 3 to 30 characters.")
        }
        guard username.unicodeScalars.allSatisfy({ allowedUsernameScalars.contains($0) }),
            let first = username.unicodeScalars.first, CharacterSet.alphanumerics.contains(first)
        else {
            throw Problem.invalidField(
                field, "may use only a-z, 0-9, '_' and '.', and must start with a letter or digit.")
        }
        return username
    }

    /// A WGS 84 coordinate: latitude in [-90, 90], longitude in [-180, 180], both finite.
    public static func coordinate(latitude: Double, longitude: Double) throws {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw Problem.invalidField("latitude", "must be a number from -90 to 90.")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw Problem.invalidField("longitude", "must be a number from -180 to 180.")
        }
    }

    private static let allowedUsernameScalars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789_.")

    private static func isDisallowedControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
    }
}
