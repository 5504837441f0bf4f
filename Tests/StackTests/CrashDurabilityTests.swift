import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

/// A service killed with SIGKILL while it writes loses no write it acknowledged: SQLite writes (and, with its default
/// `synchronous = FULL`, syncs) the WAL before a commit returns. The real `Notifications` executable runs, built beside
/// the test bundle by `swift test`.
@Suite struct CrashDurabilityTests {
    @Test func noAcknowledgedWriteIsLostWhenTheProcessIsKilled() async throws {
        // given the service running on its own SQLite file, and four writers posting notices to it
        let folder = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = try await TestStack.freePort()
        let token = "crash-test-internal-token-0123456789"
        let process = Process()
        process.executableURL = folder.appendingPathComponent("Notifications")
        process.environment = [
            "PATH": "/usr/bin:/bin", "DATA_DIR": data.path, "PORT": "\(port)", "INTERNAL_TOKEN": token,
            "LOG_LEVEL": "error",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let service = APIClient(baseURL: "http://127.0.0.1:\(port)")
        #expect(try await eventually { (try? await service.get("/health/ready"))?.status == 200 })

        let acknowledged = Acknowledged()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0... {
                        let key = "crash-\(writer)-\(index)"
                        let notice = Notice(recipientIds: ["ann"], idempotencyKey: key)
                        // Once the process is gone the posts fail: each writer stops at its first failure.
                        guard
                            let answer = try? await service.send(
                                .POST, "/internal/notifications", json: notice, headers: [("X-Internal-Token", token)]),
                            answer.status == 200
                        else { return }
                        acknowledged.keys.withLock { $0.append(key) }
                    }
                }
            }
            // when the process is killed in the middle of the writes
            // At least some acknowledged (a loaded machine acknowledges slowly), the writers still posting.
            #expect(try await eventually(within: .seconds(60)) { acknowledged.keys.withLock { $0.count } >= 40 })
            kill(process.processIdentifier, SIGKILL)
            try await group.waitForAll()
        }
        process.waitUntilExit()

        // then every acknowledged notice is in the file, as SQLite finds it on opening it again
        let database = try DatabaseQueue(path: data.appendingPathComponent("notifications.sqlite").path)
        let stored = Set(
            try await database.read { db in try String.fetchAll(db, sql: "SELECT idempotency_key FROM notifications") })
        let written = acknowledged.keys.withLock { $0 }
        #expect(written.count >= 40)
        #expect(written.filter { !stored.contains($0) } == [])
    }

    final class Acknowledged: Sendable {
        let keys = Mutex<[String]>([])
    }

    struct Notice: Encodable {
        var recipientIds: [String]
        var kind = "household.chore_completed"
        var text = "Sam took out the trash"
        var link = "/v1/households/h/chores"
        var producer = "household"
        var idempotencyKey: String
    }
}
