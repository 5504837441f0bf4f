import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHabitsStore {
    func history(_ filter: HistoryFilter, after: HistoryKey?, limit: Int) async throws -> [EventListRecord] {
        // No users, or a habit filter that names no habit (`habit=` with nothing selected): nothing to show.
        guard !filter.users.isEmpty, filter.habitIDs?.isEmpty != true else { return [] }
        return try await read { db in
            var conditions: [SQL] = []
            if let habitIDs = filter.habitIDs { conditions.append("e.habit_id IN \(habitIDs)") }
            if let comment = filter.comment {
                // `IS NOT NULL`, implied by the `LIKE`, lets SQLite use the partial index of commented events.
                conditions.append(
                    SQL(
                        sql: "e.comment IS NOT NULL AND " + TextSearch.contains("e.comment"),
                        arguments: [TextSearch.escaped(comment)]))
            }
            if filter.locatedOnly { conditions.append("e.latitude IS NOT NULL") }
            if let near = filter.near {
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
            // Statements are kept compiled unless a habit list makes their shape one of many (each would stay in the
            // cache for good); the users' lists are padded to a few lengths for the same reason.
            let kept = filter.habitIDs == nil
            if filter.latestPerHabit {
                return try Self.latestOfEachHabit(db, users: filter.users, conditions: extra + " " + order, kept: kept)
            } else if filter.users.count == 1 {
                let sql: SQL = """
                    SELECT \(Self.listColumns) FROM events e JOIN habits h ON h.id = e.habit_id
                    WHERE e.user_id IN \(filter.users)\(extra) \(order)
                    """
                return try EventListRecord.fetchAll(db, SQLRequest(literal: sql, cached: kept))
            } else {
                return try Self.mergedPage(
                    db, users: filter.users, conditions: extra + " " + order, kept: kept, limit: limit)
            }
        }
    }

    /// The friends tab's page: the latest event of each of `users`' habits, if it meets `conditions`.
    private static func latestOfEachHabit(_ db: Database, users: [String], conditions: SQL, kept: Bool) throws
        -> [EventListRecord]
    {
        let (conditionsSQL, conditionsArguments) = try conditions.build(db)
        let padded = Self.padded(users)
        let sql = """
            SELECT \(Self.listSelection) FROM habits h JOIN events e ON e.id = (
                SELECT id FROM events WHERE habit_id = h.id ORDER BY day DESC, id DESC LIMIT 1)
            WHERE h.user_id IN (\(databaseQuestionMarks(count: padded.count)))
            """ + conditionsSQL
        let statement = try kept ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        return try EventListRecord.fetchAll(statement, arguments: StatementArguments(padded) + conditionsArguments)
    }

    /// Several users' page: each user's newest (day, id) keys from one statement (an index range cut to the page
    /// size), merged here; only the page's rows are then read. Sorting everyone's whole history for one page would
    /// read thousands of rows, and one big UNION would be compiled anew on every request.
    private static func mergedPage(_ db: Database, users: [String], conditions: SQL, kept: Bool, limit: Int) throws
        -> [EventListRecord]
    {
        let (conditionsSQL, conditionsArguments) = try conditions.build(db)
        let keysSQL = "SELECT e.day, e.id FROM events e WHERE e.user_id = ?" + conditionsSQL
        let keysOfOneUser = try kept ? db.cachedStatement(sql: keysSQL) : db.makeStatement(sql: keysSQL)
        var keys: [HistoryKey] = []
        for user in users {
            let rows = try Row.fetchCursor(keysOfOneUser, arguments: [user] + conditionsArguments)
            while let row = try rows.next() { keys.append(HistoryKey(day: row[0], id: row[1])) }
        }
        keys.sort { ($0.day, $0.id) > ($1.day, $1.id) }
        let ids = Self.padded(keys.prefix(limit).map(\.id))
        guard !ids.isEmpty else { return [] }
        // The ids already passed every condition in this transaction, so the rows are read by id alone, through a
        // statement compiled once per padded length. Compiled per request (GRDB's authorizer notes each column it
        // reads) and with the keys' SQL built per user, the all tab ran at 1,599 req/s in `HabitsBenchmark` (8
        // clients); with both kept, 2,058.
        let rowsByID = try db.cachedStatement(
            sql: """
                SELECT \(Self.listSelection) FROM events e JOIN habits h ON h.id = e.habit_id
                WHERE e.id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY e.day DESC, e.id DESC
                """)
        return try EventListRecord.fetchAll(rowsByID, arguments: StatementArguments(ids))
    }

    /// `values` lengthened to 8, 16, 32, ... by repeating the first, for `IN (?, ...)`: a statement is then compiled
    /// once per length instead of once per list. Empty stays empty.
    static func padded<Value>(_ values: [Value]) -> [Value] {
        guard let first = values.first else { return [] }
        var length = 8
        while length < values.count { length *= 2 }
        return values + Array(repeating: first, count: length - values.count)
    }

    /// `distance_m(lat1, lon1, lat2, lon2)`: the haversine distance in metres, for the exact "near" test
    /// after the R*Tree's bounding box; installed on every connection as it opens.
    static let distanceFunction = DatabaseFunction("distance_m", argumentCount: 4, pure: true) { values in
        guard let lat1 = Double.fromDatabaseValue(values[0]), let lon1 = Double.fromDatabaseValue(values[1]),
            let lat2 = Double.fromDatabaseValue(values[2]), let lon2 = Double.fromDatabaseValue(values[3])
        else { return nil }
        return Geo.distance(lat1, lon1, lat2, lon2)
    }
}
