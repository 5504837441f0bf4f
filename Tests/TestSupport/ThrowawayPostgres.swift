import Foundation
import Logging
import PostgresNIO
import ServiceKit
import Synchronization

/// A PostgreSQL server of the test process's own, from the machine's PostgreSQL binaries (Debian's `postgresql`
/// package; `.ci/run` installs it): a fresh cluster in a temporary folder on a free loopback port, started on first
/// use, with a fresh database per test, and stopped when the process exits.
///
/// PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user. Durability is off
/// (`fsync`, `synchronous_commit`): these databases live for one test run.
public final class ThrowawayPostgres: Sendable {
    /// The server, without a database.
    public let serverURL: PostgresURL
    private let folder: String
    private let binaries: String

    private static let started = Mutex<Task<ThrowawayPostgres, any Error>?>(nil)

    /// The process's server, started on the first call.
    public static func shared() async throws -> ThrowawayPostgres {
        let task = started.withLock { task in
            if let task { return task }
            let starting = Task { try ThrowawayPostgres.start() }
            task = starting
            return starting
        }
        return try await task.value
    }

    /// A new, empty database on the process's server.
    public static func freshDatabase() async throws -> PostgresURL {
        let server = try await shared()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresServiceDatabase.createIfMissing(
            name, on: server.serverURL, logger: Logger(label: "test.postgres"))
        return server.serverURL.naming(database: name)
    }

    /// Drops a database ``freshDatabase()`` made, closing its connections first: a whole-stack test's seven
    /// databases take about 50 MB, and the stack suites' PostgreSQL pass would otherwise keep some 18 GB to the end.
    public static func drop(_ database: PostgresURL) async {
        guard let name = database.database, let server = try? await shared() else { return }
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        do {
            let connection = try await PostgresConnection.connect(
                configuration: server.serverURL.naming(database: "postgres").connectionConfiguration(), id: 0,
                logger: Logger(label: "test.postgres"))
            _ = try? await connection.simpleQuery("DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)").get()
            try? await connection.close()
        } catch {
            // A database left behind costs disk until the process ends, nothing else.
        }
    }

    private init(serverURL: PostgresURL, folder: String, binaries: String) {
        self.serverURL = serverURL
        self.folder = folder
        self.binaries = binaries
    }

    private static func start() throws -> ThrowawayPostgres {
        let binaries = try binaryFolder()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("platform-postgres-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder) }
        try run(
            "\(binaries)/initdb",
            [
                "-D", "\(folder)/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync",
                "--locale=C",
            ], asRoot: asRoot)
        let port = try freeLoopbackPort()
        // The server runs as a child of this process, not daemonized by `pg_ctl start`: Foundation's `Process` would
        // wait for ever on a daemon that inherited its descriptors.
        let server = Process()
        let serverArguments = [
            "-D", "\(folder)/data", "-p", "\(port)", "-k", folder, "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
            "-c", "max_connections=500", "-c", "shared_buffers=64MB",
        ]
        if asRoot {
            server.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            server.arguments = ["-u", "postgres", "--", "\(binaries)/postgres"] + serverArguments
        } else {
            server.executableURL = URL(fileURLWithPath: "\(binaries)/postgres")
            server.arguments = serverArguments
        }
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        var ready = false
        for _ in 0..<300 where !ready {
            ready =
                (try? run("\(binaries)/pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(port)"], asRoot: false)) != nil
            if !ready { usleep(100_000) }
        }
        guard ready else { throw ThrowawayPostgresError("the server did not accept connections within 30 s") }
        let throwaway = ThrowawayPostgres(
            serverURL: try PostgresURL("postgres://postgres@127.0.0.1:\(port)?sslmode=disable"), folder: folder,
            binaries: binaries)
        throwaway.stopWithProcess(asRoot: asRoot)
        return throwaway
    }

    /// Stops the server when this process exits, however it exits: a watcher outside the process stops it once the
    /// process is gone (a crash or a kill runs no exit handler).
    private func stopWithProcess(asRoot: Bool) {
        let stop = "\(binaries)/pg_ctl -D \(folder)/data -m immediate stop >/dev/null 2>&1; rm -rf \(folder)"
        let stopCommand = asRoot ? "runuser -u postgres -- sh -c '\(stop)'" : stop
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = [
            "-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stopCommand)",
        ]
        watcher.standardInput = FileHandle.nullDevice
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try? watcher.run()
    }

    private static func binaryFolder() throws -> String {
        let candidates =
            [ProcessInfo.processInfo.environment["POSTGRES_BIN"], "/usr/lib/postgresql/15/bin"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed()
            .map { "/usr/lib/postgresql/\($0)/bin" }
        for case let folder? in candidates where FileManager.default.isExecutableFile(atPath: "\(folder)/pg_ctl") {
            return folder
        }
        throw ThrowawayPostgresError(
            "no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql or set POSTGRES_BIN")
    }

    private static func run(_ executable: String, _ arguments: [String], asRoot: Bool) throws {
        let process = Process()
        if asRoot {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "postgres", "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        // A file, not a pipe: the server pg_ctl starts inherits the descriptors, and a pipe would never end.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputPath) }
        let output = try FileHandle(forWritingTo: outputPath)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let printed = (try? String(contentsOf: outputPath, encoding: .utf8)) ?? ""
            throw ThrowawayPostgresError("\((executable as NSString).lastPathComponent) failed: \(printed)")
        }
    }

    private static func freeLoopbackPort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw ThrowawayPostgresError("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The throwaway server could not be started; says why.
public struct ThrowawayPostgresError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
