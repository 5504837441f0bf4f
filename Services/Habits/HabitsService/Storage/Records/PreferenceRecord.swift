/// A row of `preferences`: a user's IANA time zone ("today" is computed in it).
struct PreferenceRecord: Codable, Sendable {
    var userId: String
    var timeZone: String
}
