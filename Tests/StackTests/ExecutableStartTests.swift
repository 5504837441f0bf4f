import Foundation
import NIOCore
import NIOPosix
import Testing

/// Every executable that cannot start (a busy port, a malformed setting) stops with exit status 1 and one line on
/// standard error naming the setting to change: no trap, no backtrace, and never a silent fallback to a default.
/// The real binaries run, built beside the test bundle by `swift test`.
@Suite struct ExecutableStartTests {
    static let services = ["Identity", "Social", "Messaging", "Geo", "Habits", "Household", "Notifications"]
    static let executables = ["Gateway"] + services

    @Test(arguments: executables)
    func aBusyPortIsOneLineNamingPORT(executable: String) async throws {
        // given something listening on a port
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(holder.localAddress?.port)
        // when the executable is started on it
        let start = try await Self.start(executable, ["PORT": "\(port)"])
        try await holder.close()
        // then
        #expect(start.status == 1, "\(start.errorOutput)")
        #expect(
            start.lastLine
                == "\(executable.lowercased()): port \(port) is already in use: stop what listens there or choose another with PORT."
        )
        #expect(!start.trapped, "\(start.errorOutput)")
    }

    /// Before, `PORT=abc` listened on the default port and `PORT=70000` on 4464 (70000 mod 65536). Every
    /// executable is started with one malformed port, each value by more than one executable: they all read it
    /// with `NumberSetting.port`, whose every refusal `NumberSettingTests` checks.
    static let malformedPorts = zip(executables, (0..<executables.count).map { ["abc", "70000", "-5"][$0 % 3] })

    @Test(arguments: malformedPorts)
    func aMalformedPortIsOneLineNamingPORT(executable: String, port: String) async throws {
        // when
        let start = try await Self.start(executable, ["PORT": port])
        // then
        #expect(start.status == 1, "\(start.errorOutput)")
        #expect(
            start.lastLine == "\(executable.lowercased()): PORT must be a port number from 1 to 65535, not '\(port)'.")
        #expect(!start.trapped, "\(start.errorOutput)")
    }

    @Test(arguments: ["Gateway", "Geo"])
    func aHostThatDoesNotResolveIsOneLineNamingHOST(executable: String) async throws {
        // when
        let start = try await Self.start(executable, ["HOST": "no-such-host.invalid", "PORT": "1"])
        // then
        #expect(start.status == 1, "\(start.errorOutput)")
        #expect(
            start.lastLine.hasPrefix("\(executable.lowercased()): HOST 'no-such-host.invalid' "), "\(start.lastLine)")
        #expect(start.lastLine.hasSuffix("set HOST."), "\(start.lastLine)")
    }

    /// Before, a service started and only its first signed-in request failed.
    @Test(arguments: services)
    func aMalformedIdentityURLIsOneLineNamingIt(executable: String) async throws {
        // when
        let start = try await Self.start(executable, ["IDENTITY_URL": "identity:8081"])
        // then
        #expect(start.status == 1, "\(start.errorOutput)")
        #expect(
            start.lastLine
                == "\(executable.lowercased()): invalid configuration: IDENTITY_URL must be http://host:port, not 'identity:8081'"
        )
    }

    @Test func theGatewaysNumbersAreCheckedToo() async throws {
        // when
        let start = try await Self.start("Gateway", ["MAX_BODY_BYTES": "ten"])
        // then
        #expect(start.status == 1, "\(start.errorOutput)")
        #expect(start.lastLine == "gateway: MAX_BODY_BYTES must be a whole number from 1 to 1073741824, not 'ten'.")
    }

    struct Start {
        var status: Int32
        var errorOutput: String
        /// The last line on standard error (log lines come before it).
        var lastLine: String {
            errorOutput.split(separator: "\n").last.map(String.init) ?? ""
        }
        var trapped: Bool {
            errorOutput.contains("Fatal error") || errorOutput.contains("Backtrace") || errorOutput.contains("💣")
        }
    }

    /// Runs the built executable with `environment` (and a fresh data folder); one that has not stopped after
    /// 60 seconds started serving, and is stopped (killed if it does not stop).
    static func start(_ executable: String, _ environment: [String: String]) async throws -> Start {
        let folder = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        let binary = folder.appendingPathComponent(executable)
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no \(binary.path)")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let output = data.appendingPathExtension("err")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = binary
        process.environment = ["PATH": "/usr/bin:/bin", "DATA_DIR": data.path].merging(environment) { _, given in given
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = handle
        let stopper = Task {
            try await Task.sleep(for: .seconds(60))
            if process.isRunning { process.terminate() }
            // One that does not stop on SIGTERM must not hang the suite either.
            try await Task.sleep(for: .seconds(10))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        stopper.cancel()
        try handle.close()
        return Start(
            status: process.terminationStatus,
            errorOutput: String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }
}
