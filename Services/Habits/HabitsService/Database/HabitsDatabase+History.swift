import Foundation
import GRDB
import PlatformKit

/// Which events a history page shows, already validated.
struct HistoryFilter: Sendable {
    /// Whose events: me, the people I follow, or both.
    var users: [String]
    /// Only the most recent event of each habit (the "friends" tab).
    var latestPerHabit = false
    var habitIDs: [String]?
    /// Text the comment must contain (case-insensitive for ASCII).
    var comment: String?
    /// Within ``Geo/nearRadius`` of this point.
    var near: (latitude: Double, longitude: Double)?
    /// Only events with a location (the map).
    var locatedOnly = false
}

/// Where a history page continues: after this day and event id (newest first).
struct HistoryKey: Codable, Sendable {
    var day: String
    var id: Int64
}

extension HabitsDatabase {
    /// One page of events newest first (by day, then id); `limit` should be one more than the page size.
    func history(_ filter: HistoryFilter, after: HistoryKey?, limit: Int) async throws -> [EventListRecord] {
        // No users, or a habit filter that names no habit (`habit=` with nothing selected): nothing to show.
        guard !filter.users.isEmpty, filter.habitIDs?.isEmpty != true else { return [] }
        return try await read { db in
            var conditions: [SQL] = []
            if let habitIDs = filter.habitIDs { conditions.append("e.habit_id IN \(habitIDs)") }
            if let comment = filter.comment {
                let pattern = "%" + Self.escapeLike(comment) + "%"
                conditions.append("e.comment LIKE \(pattern) ESCAPE '\\'")
            }
            if filter.locatedOnly { conditions.append("e.latitude IS NOT NULL") }
            if let near = filter.near {
                db.add(function: Self.distanceFunction)
                // The R*Tree keeps 32-bit floats, rounded outwards: a point 4,999.7 m away can be stored a few
                // decimetres past the box's edge. So the box is widened by `Geo.rtreeMargin` and only prefilters
                // (overlap, not containment); the haversine test below draws the exact, inclusive circle.
                let box = Geo.box(latitude: near.latitude, longitude: near.longitude, radius: Geo.nearRadius)
                let margin = Geo.rtreeMargin
                conditions.append(
                    """
                    e.id IN (SELECT id FROM event_locations
                        WHERE max_lat >= \(box.minLat - margin) AND min_lat <= \(box.maxLat + margin)
                        AND max_lon >= \(box.minLon - margin) AND min_lon <= \(box.maxLon + margin))
                    AND distance_m(e.latitude, e.longitude, \(near.latitude), \(near.longitude)) <= \(Geo.nearRadius)
                    """)
            }
            if let after {
                conditions.append("e.day <= \(after.day) AND (e.day < \(after.day) OR e.id < \(after.id))")
            }
            let extra: SQL = conditions.isEmpty ? "" : " AND " + conditions.joined(separator: " AND ")
            let order: SQL = "ORDER BY e.day DESC, e.id DESC LIMIT \(limit)"
            let sql: SQL
            if filter.latestPerHabit {
                sql = """
                    SELECT \(Self.listColumns) FROM habits h JOIN events e ON e.id = (
                        SELECT id FROM events WHERE habit_id = h.id ORDER BY day DESC, id DESC LIMIT 1)
                    WHERE h.user_id IN \(filter.users)\(extra) \(order)
                    """
            } else if filter.users.count == 1 {
                sql = """
                    SELECT \(Self.listColumns) FROM events e JOIN habits h ON h.id = e.habit_id
                    WHERE e.user_id IN \(filter.users)\(extra) \(order)
                    """
            } else {
                // Several users: each user's newest (day, id) keys from one cached statement (an index range cut
                // to the page size), merged here; only the page's rows are then read. Sorting everyone's whole
                // history for one page would read thousands of rows, and one big UNION would be compiled anew
                // on every request.
                var keys: [HistoryKey] = []
                for user in filter.users {
                    let query = SQL(sql: "SELECT e.day, e.id FROM events e WHERE e.user_id = ?", arguments: [user])
                    let (text, arguments) = try (query + extra + " " + order).build(db)
                    let rows = try Row.fetchCursor(db.cachedStatement(sql: text), arguments: arguments)
                    while let row = try rows.next() { keys.append(HistoryKey(day: row[0], id: row[1])) }
                }
                keys.sort { ($0.day, $0.id) > ($1.day, $1.id) }
                let ids = keys.prefix(limit).map(\.id)
                sql = """
                    SELECT \(Self.listColumns) FROM events e JOIN habits h ON h.id = e.habit_id
                    WHERE e.id IN \(ids) \(order)
                    """
            }
            // One user without a habit list (my own history, the hot read) has a few shapes of SQL, kept
            // compiled; lists of any length would each add a statement to the cache for good.
            let fixedShape = filter.users.count == 1 && filter.habitIDs == nil && !filter.latestPerHabit
            return try EventListRecord.fetchAll(db, SQLRequest(literal: sql, cached: fixedShape))
        }
    }

    /// `distance_m(lat1, lon1, lat2, lon2)`: the haversine distance in metres, for the exact "near" test
    /// after the R*Tree's bounding box.
    static let distanceFunction = DatabaseFunction("distance_m", argumentCount: 4, pure: true) { values in
        guard let lat1 = Double.fromDatabaseValue(values[0]), let lon1 = Double.fromDatabaseValue(values[1]),
            let lat2 = Double.fromDatabaseValue(values[2]), let lon2 = Double.fromDatabaseValue(values[3])
        else { return nil }
        return Geo.distance(lat1, lon1, lat2, lon2)
    }

    /// Escapes `%`, `_` and the escape character itself, so a search for "50%" means that text.
    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
