import Foundation
import GRDB

extension SQLiteNotificationsStore {
    func register(_ device: DeviceRecord) async throws {
        typealias Columns = DeviceRecord.Columns
        try await write { db in
            try DeviceRecord.filter(
                Columns.userId == device.userId && Columns.sessionId == device.sessionId
                    && Columns.token != device.token
            )
            .deleteAll(db)
            try device.upsert(db)
        }
    }

    func devices(of user: String) async throws -> [DeviceRecord] {
        try await read { db in
            try DeviceRecord.filter(DeviceRecord.Columns.userId == user).order(
                DeviceRecord.Columns.createdAt, DeviceRecord.Columns.token
            )
            .fetchAll(db)
        }
    }

    func removeDevices(of user: String, sessions: [String]) async throws -> Int {
        typealias Columns = DeviceRecord.Columns
        return try await write { db in
            try DeviceRecord.filter(Columns.userId == user && sessions.contains(Columns.sessionId)).deleteAll(db)
        }
    }

    func removeDevice(_ token: String, of user: String?) async throws -> Bool {
        typealias Columns = DeviceRecord.Columns
        return try await write { db in
            var request = DeviceRecord.filter(Columns.token == token)
            if let user { request = request.filter(Columns.userId == user) }
            return try request.deleteAll(db) > 0
        }
    }

    func preferences(of user: String) async throws -> Preferences {
        try await read { db in try PreferencesRecord.fetchOne(db, key: user)?.preferences ?? Preferences() }
    }

    func save(_ preferences: Preferences, of user: String, now: Date) async throws {
        try await write { db in
            try PreferencesRecord(userID: user, preferences: preferences, now: now).upsert(db)
        }
    }
}
