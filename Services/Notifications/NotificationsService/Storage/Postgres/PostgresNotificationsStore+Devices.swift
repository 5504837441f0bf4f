import Foundation
import PostgresNIO
import ServiceKit

extension PostgresNotificationsStore {
    /// The advisory-lock class of a session's device registrations (the second key is the session's hash).
    static let deviceLockClass: Int32 = 61_720_212

    func register(_ device: DeviceRecord) async throws {
        try await write { session in
            // One device per session: two registrations of one session (on two replicas) must not both keep theirs.
            try await session.execute(
                "SELECT pg_advisory_xact_lock(\(Self.deviceLockClass), hashtext(\(device.sessionId)))")
            try await session.execute(
                """
                DELETE FROM devices
                WHERE user_id = \(device.userId) AND session_id = \(device.sessionId) AND token <> \(device.token)
                """)
            try await session.execute(
                """
                INSERT INTO devices (token, user_id, session_id, environment, created_at)
                VALUES (\(device.token), \(device.userId), \(device.sessionId), \(device.environment),
                    \(StoredInstant(device.createdAt)))
                ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, session_id = EXCLUDED.session_id,
                    environment = EXCLUDED.environment, created_at = EXCLUDED.created_at
                """)
        }
    }

    func devices(of user: String) async throws -> [DeviceRecord] {
        try await read { session in
            try await session.rows(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE user_id = \(user) ORDER BY created_at, token
                """
            ).map(Self.device)
        }
    }

    func removeDevices(of user: String, sessions: [String]) async throws -> Int {
        let sessions = sessions.filter { Self.storable($0) }
        guard Self.storable(user) else { return 0 }
        return try await write { session in
            let removed = try await session.execute(
                "DELETE FROM devices WHERE user_id = \(user) AND session_id = ANY(\(sessions)) RETURNING 1")
            // The other replicas end these sessions' streams, in order with the events before and after.
            try await Self.announce(
                session, PostgresStreamFeed.endedSessionsKind,
                sessions.filter { !$0.isEmpty && !$0.contains(where: \.isWhitespace) })
            return removed
        }
    }

    func removeDevice(_ token: String, of user: String?) async throws -> Bool {
        guard Self.storable(token) else { return false }
        return try await write { session in
            let removed =
                if let user {
                    try await session.execute(
                        "DELETE FROM devices WHERE token = \(token) AND user_id = \(user) RETURNING 1")
                } else {
                    try await session.execute("DELETE FROM devices WHERE token = \(token) RETURNING 1")
                }
            return removed > 0
        }
    }

    func preferences(of user: String) async throws -> Preferences {
        try await read { session in
            try await session.rows(
                "SELECT \(unescaped: Self.preferencesColumns) FROM preferences WHERE user_id = \(user)"
            ).first.map(Self.preferences)?.preferences ?? Preferences()
        }
    }

    func save(_ preferences: Preferences, of user: String, now: Date) async throws {
        let row = PreferencesRecord(userID: user, preferences: preferences, now: now)
        try await write { session in
            _ = try await session.execute(
                """
                INSERT INTO preferences
                    (user_id, disabled_kinds, quiet_start_minute, quiet_end_minute, time_zone, updated_at)
                VALUES (\(row.userId), \(row.disabledKinds), \(row.quietStartMinute), \(row.quietEndMinute),
                    \(row.timeZone), \(StoredInstant(row.updatedAt)))
                ON CONFLICT (user_id) DO UPDATE SET disabled_kinds = EXCLUDED.disabled_kinds,
                    quiet_start_minute = EXCLUDED.quiet_start_minute, quiet_end_minute = EXCLUDED.quiet_end_minute,
                    time_zone = EXCLUDED.time_zone, updated_at = EXCLUDED.updated_at
                """)
        }
    }
}
