import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PlatformKit
import ServiceKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable that cannot start says why in one line naming what to change (no trap, no backtrace).
@Suite struct ExecutableMainTests {
    /// The error a service's application really throws when its port is taken, then the line it becomes.
    @Test func aBusyPortNamesThePortAndTheVariable() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let holder = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        defer { holder.close(promise: nil) }
        let port = try #require(holder.localAddress?.port)
        let application = Application(
            router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        var thrown: (any Error)?
        do { try await application.runService() } catch { thrown = error }
        let error = try #require(thrown)
        let line = ExecutableMain.failureLine(error, name: "household", environment: ["PORT": "\(port)"])
        #expect(
            line == "household: port \(port) is already in use: stop what listens there or choose another with PORT.")
    }

    /// Without `PORT` the line names the port the executable took by default (before: "its port").
    @Test func aBusyDefaultPortIsNamed() {
        let error = IOError(errnoCode: EADDRINUSE, reason: "bind(descriptor:ptr:bytes:)")
        #expect(
            ExecutableMain.failureLine(error, name: "geo", environment: [:])
                == "geo: port \(ServiceName.geo.defaultPort) is already in use: stop what listens there or choose "
                + "another with PORT.")
        #expect(ExecutableMain.failureLine(error, name: "gateway", environment: [:]).hasPrefix("gateway: port 8080 "))
    }

    @Test func aSettingsErrorIsOneLineWithItsVariable() {
        let error = ConfigurationError.invalid("ENVIRONMENT must be development or production")
        #expect(
            ExecutableMain.failureLine(error, name: "geo", environment: [:])
                == "geo: invalid configuration: ENVIRONMENT must be development or production")
        struct Multiline: Error, CustomStringConvertible { var description = "first\nsecond" }
        #expect(ExecutableMain.failureLine(Multiline(), name: "gateway", environment: [:]) == "gateway: first second")
    }
}
