import Foundation
import NIOCore
import PlatformKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How every executable starts: a failure to start (a malformed setting, a busy port) ends the process with one
/// line on standard error naming what to change and exit status 1, not a trap with a backtrace.
public enum ExecutableMain {
    /// Runs `body` (read the configuration, build, serve); on a failure, prints ``failureLine(_:name:environment:)``
    /// and exits with status 1.
    public static func run(_ name: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            exit(fail(error, name: name, environment: ProcessInfo.processInfo.environment))
        }
    }

    /// Writes ``failureLine(_:name:environment:)`` for `error` on standard error and returns the exit status, 1.
    /// The local stack, whose `run` returns its status, reports through this too.
    public static func fail(_ error: any Error, name: String, environment: [String: String]) -> Int32 {
        let line = failureLine(error, name: name, environment: environment) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
        return 1
    }

    /// The one line for `error`: a busy port names the `PORT` to change, a host that does not resolve the `HOST`,
    /// anything else says what it is (settings errors already name their variable).
    public static func failureLine(_ error: any Error, name: String, environment: [String: String]) -> String {
        if let io = error as? IOError, io.errnoCode == EADDRINUSE {
            let given = environment["PORT"] ?? defaultPort(of: name).map(String.init)
            let port = given.map { "port \($0)" } ?? "its port"
            return "\(name): \(port) is already in use: stop what listens there or choose another with PORT."
        }
        if let io = error as? IOError, io.errnoCode == EADDRNOTAVAIL || io.errnoCode == EACCES {
            return "\(name): cannot listen where HOST and PORT say (\(io.description)): choose another with HOST or PORT."
        }
        if let unknown = error as? SocketAddressError.UnknownHost {
            return "\(name): HOST '\(unknown.host)' is neither an address of this machine nor a name that resolves: "
                + "set HOST."
        }
        return "\(name): \(String(describing: error).replacingOccurrences(of: "\n", with: " "))"
    }

    /// The port an executable listens on without `PORT`.
    static func defaultPort(of name: String) -> Int? {
        name == "gateway" ? 8080 : ServiceName(rawValue: name)?.defaultPort
    }
}
