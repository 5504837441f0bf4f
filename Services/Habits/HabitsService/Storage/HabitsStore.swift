import Foundation
import PlatformKit
import ServiceKit

/// The habits service's storage, whichever database keeps it (``SQLiteHabitsStore``, ``PostgresHabitsStore``): the
/// only place that knows SQL. Each method is one transaction. Every habit and event belongs to one user; methods that
/// take an `owner` answer 404 to anyone else, so another user's habits are not even revealed to exist.
protocol HabitsStore: ServiceStore {
    // MARK: Preferences

    /// The user's IANA time zone ("today" is counted in it); UTC until they set one.
    func timeZone(of userID: String) async throws -> String

    /// The time zones of those of `userIDs` who set one.
    func timeZones(of userIDs: [String]) async throws -> [String: String]

    func setTimeZone(of userID: String, to timeZone: String) async throws

    // MARK: Habits

    func createHabit(_ habit: HabitRecord) async throws

    /// My habit; 404 for anyone else.
    func habit(_ id: String, owner: String) async throws -> HabitRecord

    /// The habits of these users (or just `habitID` among them), in their owner's order (``HabitOrder``), each with its status as of
    /// `todays[owner]` (today in the owner's time zone).
    func habitsWithStatus(of userIDs: [String], only habitID: String?, todays: [String: LocalDay]) async throws
        -> [HabitWithStatus]

    /// Today's list in one transaction: my habits due today in my time zone (scheduled that weekday, started), in
    /// order, each with its status and the id of today's event once it is done.
    func todayList(of userID: String, clock: WallClock) async throws -> [HabitWithStatus]

    /// Changes my habit; the closure validates and edits it.
    func updateHabit(_ id: String, owner: String, now: Date, _ change: @Sendable (inout HabitRecord) throws -> Void)
        async throws -> HabitRecord

    /// Puts my habits in the order of `ids` (each mine, none twice); those not named follow in their current order.
    func setOrder(of owner: String, ids: [String], now: Date) async throws

    /// Deletes my habit with its events, their photos and locations.
    func deleteHabit(_ id: String, owner: String) async throws

    /// My habit's done days (``DoneRule``), skipped days and paused days, for its statistics.
    func eventDays(of habitID: String, owner: String) async throws -> HabitDays

    // MARK: Skips and pauses

    /// Skips my habit on `day` (`skipped`), or takes the skip back; either is idempotent.
    func setSkip(_ habitID: String, owner: String, day: LocalDay, skipped: Bool) async throws

    /// My habit's skipped days, oldest first.
    func skips(of habitID: String, owner: String) async throws -> [LocalDay]

    /// Adds a pause to my habit (at most ``Excuses/maximumPauses``); `pause.id` is assigned.
    func addPause(_ pause: PauseRecord, owner: String) async throws -> PauseRecord

    /// My habit's pauses, earliest first.
    func pauses(of habitID: String, owner: String) async throws -> [PauseRecord]

    func deletePause(_ id: Int64, of habitID: String, owner: String) async throws

    // MARK: Events

    /// Records an event for my habit on a day it is due, with a value if and only if it is measurable
    /// (``EventRules``); a retry with the same idempotency
    /// key returns the first event (`created` false) instead of a second one, even when both arrive at once.
    func createEvent(_ new: NewEvent, clock: WallClock) async throws -> (event: EventListRecord, created: Bool)

    /// One event, whoever's (the controller checks who may see it); 404 when there is none.
    func event(_ id: Int64) async throws -> EventListRecord

    /// Edits my event (comment, location, photo, a measurable habit's value); the day stays: it is what the event is
    /// for.
    func updateEvent(
        _ id: Int64, owner: String, now: Date, photo: PhotoChange, _ change: @Sendable (inout EventRecord) -> Void
    ) async throws -> EventListRecord

    func deleteEvent(_ id: Int64, owner: String) async throws

    /// The event's photo, tagged by its bytes (the table keeps no tag); nil when it has none.
    func photo(of event: EventListRecord) async throws -> StoredBytes?

    /// My events (of one habit, or of all), oldest first (by day, then id), for the CSV export.
    func exportEvents(of owner: String, habitID: String?) async throws -> [EventListRecord]

    // MARK: Reminders

    /// The reminders due at `now` (``ReminderRules``): habits not archived whose reminder time, in the owner's zone,
    /// fell within the last hour on a day they are due and not yet done, skipped or paused. Each is marked sent in the
    /// transaction that claims it, so it is claimed once across restarts and replicas.
    func claimReminders(now: Date) async throws -> [ClaimedReminder]

    // MARK: History

    /// One page of events newest first (by day, then id); `limit` should be one more than the page size.
    func history(_ filter: HistoryFilter, after: HistoryKey?, limit: Int) async throws -> [EventListRecord]
}

extension HabitsStore {
    func habitsWithStatus(of userIDs: [String], todays: [String: LocalDay]) async throws -> [HabitWithStatus] {
        try await habitsWithStatus(of: userIDs, only: nil, todays: todays)
    }

    /// Today in the user's time zone: the day "today", due days and default start dates are counted in.
    func today(of userID: String, clock: WallClock) async throws -> LocalDay {
        clock.today(inZone: try await timeZone(of: userID))
    }

    /// Today in each user's time zone.
    func todays(of userIDs: [String], clock: WallClock) async throws -> [String: LocalDay] {
        guard !userIDs.isEmpty else { return [:] }
        let zones = try await timeZones(of: userIDs)
        return Dictionary(
            userIDs.map { ($0, clock.today(inZone: zones[$0] ?? HabitsStoreDefaults.timeZone)) },
            uniquingKeysWith: { a, _ in a })
    }
}

/// What a user has before choosing.
enum HabitsStoreDefaults {
    static let timeZone = "UTC"
}
