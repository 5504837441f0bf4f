import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHabitsStore {
    func history(_ filter: HistoryFilter, after: HistoryKey?, limit: Int) async throws -> [EventListRecord] {
        // No users, or a habit filter that names no habit (`habit=` with nothing selected): nothing to show.
        let users = PostgresText.fitting(filter.users)
        guard !users.isEmpty, filter.habitIDs?.isEmpty != true, PostgresText.fits(filter.comment, after?.day) else {
            return []
        }
        var bindings = PostgresBindings()
        func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        let usersParameter = bind(users)
        var conditions: [String] = []
        if let habitIDs = filter.habitIDs {
            conditions.append("e.habit_id = ANY(\(bind(PostgresText.fitting(habitIDs))))")
        }
        if let comment = filter.comment {
            // SQLite's LIKE: ASCII letters match either case, anything else only itself.
            conditions.append(
                "e.comment IS NOT NULL AND ascii_lower(e.comment) LIKE '%' || ascii_lower(\(bind(TextSearch.escaped(comment)))) || '%' ESCAPE '\\'"
            )
        }
        if filter.locatedOnly { conditions.append("e.latitude IS NOT NULL") }
        if let near = filter.near {
            // The box only prefilters (the index); `distance_m` draws the exact, inclusive circle as SQLite's does.
            let box = Geo.box(latitude: near.latitude, longitude: near.longitude, radius: Geo.nearRadius)
            conditions.append(
                """
                e.latitude BETWEEN \(bind(box.minLat)) AND \(bind(box.maxLat))
                AND e.longitude BETWEEN \(bind(box.minLon)) AND \(bind(box.maxLon))
                AND distance_m(e.latitude, e.longitude, \(bind(near.latitude)), \(bind(near.longitude)))
                    <= \(bind(Geo.nearRadius))
                """)
        }
        if let after {
            let day = bind(after.day)
            conditions.append("e.day <= \(day) AND (e.day < \(day) OR e.id < \(bind(after.id)))")
        }
        let extra = conditions.map { " AND " + $0 }.joined()
        let order = " ORDER BY e.day DESC, e.id DESC LIMIT \(bind(limit))"
        let sql =
            filter.latestPerHabit
            // The friends tab: the latest event of each habit, if it meets the conditions.
            ? """
            SELECT \(EventListRecord.postgresColumns) FROM habits h JOIN events e ON e.id = (
                SELECT id FROM events WHERE habit_id = h.id ORDER BY day DESC, id DESC LIMIT 1)
            WHERE h.user_id = ANY(\(usersParameter))
            """ + extra + order
            : """
            SELECT \(EventListRecord.postgresColumns) FROM events e JOIN habits h ON h.id = e.habit_id
            WHERE e.user_id = ANY(\(usersParameter))
            """ + extra + order
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        return try await read { db in try await db.rows(query).map(EventListRecord.init(postgres:)) }
    }
}
