import PlatformKit

/// The rules of chores beside their schedule and assignment.
enum ChoreRules {
    /// Days over which "whoever did least" weighs points.
    static let fairnessWindowDays = 30

    /// A chore is worth 0 to 100 points.
    static func points(_ value: Int) throws -> Int {
        guard (0...100).contains(value) else { throw HouseholdError.invalidField("points", "must be from 0 to 100.") }
        return value
    }

    /// A new schedule starts today or later (yesterday passes: the client's clock may be a little behind).
    static func checkStart(_ start: LocalDay, today: LocalDay) throws {
        guard start >= today.adding(days: -1) else {
            throw HouseholdError.invalidField("startOn", "must not be in the past.")
        }
    }
}

/// The range of days chore statistics cover.
enum StatisticsRange {
    /// The longest range one request may cover.
    static let maximumDays = 366 * 2

    /// The range asked for, or the 30 days up to today, checked.
    static func of(from: LocalDay?, to: LocalDay?, today: LocalDay) throws -> (from: LocalDay, to: LocalDay) {
        let to = to ?? today
        let from = from ?? to.adding(days: -29)
        guard from <= to else { throw HouseholdError.invalidField("from", "must not be after to.") }
        guard from.days(until: to) <= maximumDays else {
            throw HouseholdError.invalidField("from", "the range may cover at most \(maximumDays) days.")
        }
        return (from, to)
    }
}

/// Notes on the bulletin board expire.
enum NoteLifetime {
    static let maximumDays = 90

    /// The days until a new note expires: as asked, else the household's default; 1 to 90.
    static func days(_ requested: Int?, householdDefault: Int) throws -> Int {
        let days = requested ?? householdDefault
        guard (1...maximumDays).contains(days) else {
            throw HouseholdError.invalidField("expiresInDays", "must be from 1 to \(maximumDays).")
        }
        return days
    }

    /// The hours until a new note expires: `expiresInHours` (1 hour to 90 days) or `expiresInDays` (at most
    /// one of them), else the household's default days.
    static func hours(days requestedDays: Int?, hours requestedHours: Int?, householdDefault: Int) throws -> Int {
        guard let hours = requestedHours else {
            return try days(requestedDays, householdDefault: householdDefault) * 24
        }
        guard requestedDays == nil else {
            throw HouseholdError.invalidField("expiresInHours", "must not be given with expiresInDays.")
        }
        guard (1...maximumDays * 24).contains(hours) else {
            throw HouseholdError.invalidField("expiresInHours", "must be from 1 to \(maximumDays * 24).")
        }
        return hours
    }
}

/// Which chores a list shows: those with a next occurrence, completed one-off chores (none left), or both.
enum ChoreListStatus: String, Sendable {
    case pending, done, all

    /// `?status=`, pending when absent.
    init(query text: Substring?) throws {
        guard let text else {
            self = .pending
            return
        }
        guard let value = ChoreListStatus(rawValue: String(text)) else {
            throw HouseholdError.invalidField("status", "must be pending, done or all.")
        }
        self = value
    }

    func shows(_ nextDue: String?) -> Bool {
        switch self {
        case .pending: nextDue != nil
        case .done: nextDue == nil
        case .all: true
        }
    }
}
