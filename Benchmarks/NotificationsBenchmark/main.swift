// Notifications benchmark (issue 5): 1,000 live streams open through the gateway, notices posted to the
// internal endpoint at a steady rate, and the latency from post to receipt on the recipient's stream.
//
//   swift run -c release NotificationsBenchmark [streams] [notices per second] [seconds] [recipients per notice]
//
// Everything runs in this process on loopback: a stand-in identity (JWKS), the notifications service with a
// temporary database, and the gateway, so each notice crosses the same hops as in production (producer ->
// service -> SQLite -> hub -> SSE -> gateway -> client). Each notice carries its send time in its text.
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import GatewayService
import NIOCore
import NotificationsService
import PlatformKit
import ServiceKit
import Synchronization

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

/// Prints a line at once, also when the output is piped (`print` would buffer it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let streamCount = arguments.first ?? 1_000
let noticesPerSecond = arguments.dropFirst().first ?? 500
let seconds = arguments.dropFirst(2).first ?? 10
let recipientsPerNotice = arguments.dropFirst(3).first ?? 1
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notifications-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let identity = try await StandInIdentity.start()
let servicePort = try await startService { onListening in
    try await buildNotificationsApplication(
        NotificationsConfiguration(
            settings: ServiceSettings(
                service: .notifications, port: 0, database: .file(folder.appendingPathComponent("n.sqlite").path),
                internalToken: "bench", identityURL: ServiceAddress(identity.url), logLevel: .error,
                onListening: onListening)))
}
let gatewayPort = try await startService { onListening in
    var upstreams: [ServiceName: GatewayConfiguration.Upstream] = [:]
    for service in ServiceName.allCases { upstreams[service] = .init(host: "127.0.0.1", port: 1) }
    upstreams[.identity] = GatewayConfiguration.Upstream(url: identity.url)
    upstreams[.notifications] = .init(host: "127.0.0.1", port: servicePort)
    return GatewayServer(
        configuration: GatewayConfiguration(
            port: 0, upstreams: upstreams, requestsPerMinute: 1_000_000, logLevel: .error, onListening: onListening))
}

/// Receipt latencies in nanoseconds, and how many streams said hello.
final class Tally: Sendable {
    let latencies = Mutex<[UInt64]>([])
    let connected = Mutex(0)
    let failed = Mutex<[String]>([])
}
let tally = Tally()
var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = streamCount + 16
let streamClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)

/// The send time a notice carries: `t=<uptime ns>` in its text.
func sentAt(_ line: Substring) -> UInt64? {
    guard let range = line.range(of: "\"text\":\"t=") else { return nil }
    return UInt64(line[range.upperBound...].prefix { $0.isNumber })
}

say("opening \(streamCount) streams through the gateway ...")
let users = (0..<streamCount).map { _ in UUID().uuidString.lowercased() }
var tokens: [String] = []
for user in users { tokens.append(try await identity.token(for: user)) }
let rssBefore = residentMegabytes()
let readers = Task {
    await withTaskGroup(of: Void.self) { group in
        for token in tokens {
            group.addTask {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(gatewayPort)\(NotificationsPaths.stream)")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                do {
                    let response = try await streamClient.execute(request, deadline: .now() + .hours(1))
                    guard response.status == .ok else {
                        tally.failed.withLock { $0.append("status \(response.status.code)") }
                        return
                    }
                    var pending = ""
                    for try await chunk in response.body {
                        let received = DispatchTime.now().uptimeNanoseconds
                        pending += String(buffer: chunk)
                        while let newline = pending.firstIndex(of: "\n") {
                            let line = pending[..<newline]
                            if line == ": connected" { tally.connected.withLock { $0 += 1 } }
                            if line.hasPrefix("data: "), let sent = sentAt(line) {
                                tally.latencies.withLock { $0.append(received - sent) }
                            }
                            pending.removeSubrange(...newline)
                        }
                    }
                } catch {
                    tally.failed.withLock { $0.append("\(error)") }
                }
            }
        }
    }
}
while tally.connected.withLock({ $0 }) + tally.failed.withLock({ $0.count }) < streamCount {
    try await Task.sleep(for: .milliseconds(100))
}
let failures = tally.failed.withLock { $0 }
guard failures.isEmpty else {
    say("\(failures.count) streams failed, e.g. \(failures[0])")
    exit(1)
}
say("  \(streamCount) streams open; process resident memory \(rssBefore) MB -> \(residentMegabytes()) MB")

say("posting \(noticesPerSecond) notices/s for \(seconds) s, \(recipientsPerNotice) recipient(s) each ...")
let total = noticesPerSecond * seconds
let interval = 1_000_000_000 / UInt64(noticesPerSecond)
let start = DispatchTime.now().uptimeNanoseconds
let posting = ContinuousClock.now
try await withThrowingTaskGroup(of: Void.self) { group in
    // Each poster owns every n-th slot of the schedule, so a slow post delays only its own next slots.
    let posters = 32
    for poster in 0..<posters {
        group.addTask {
            for index in stride(from: poster, to: total, by: posters) {
                let due = start + UInt64(index) * interval
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { try await Task.sleep(for: .nanoseconds(Int64(due - now))) }
                let recipients = (0..<recipientsPerNotice).map { users[(index * 7 + $0 * 131) % users.count] }
                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(servicePort)\(NotificationsPaths.internalNotifications)")
                request.method = .POST
                request.headers.add(name: PlatformHeaders.internalToken, value: "bench")
                request.headers.add(name: "Content-Type", value: "application/json")
                let json = """
                    {"recipientIds":[\(recipients.map { "\"\($0)\"" }.joined(separator: ","))],"kind":"bench.tick",\
                    "text":"t=\(DispatchTime.now().uptimeNanoseconds)","link":"/v1/bench","producer":"bench",\
                    "idempotencyKey":"\(index)"}
                    """
                request.body = .bytes(ByteBuffer(string: json))
                let response = try await HTTPClient.platform.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 1 << 16)
                guard response.status == .ok else { fatalError("post answered \(response.status)") }
            }
        }
    }
    try await group.waitForAll()
}
let postSeconds =
    Double((ContinuousClock.now - posting).components.attoseconds) / 1e18
    + Double((ContinuousClock.now - posting).components.seconds)
let expected = total * recipientsPerNotice
let waitStart = ContinuousClock.now
while tally.latencies.withLock({ $0.count }) < expected, ContinuousClock.now - waitStart < .seconds(10) {
    try await Task.sleep(for: .milliseconds(50))
}
let latencies = tally.latencies.withLock { $0 }.sorted()
func ms(_ ns: UInt64) -> String { String(format: "%.2f ms", Double(ns) / 1e6) }
say(
    "  posted \(total) notices in \(String(format: "%.1f", postSeconds)) s (\(String(format: "%.0f", Double(total) / postSeconds))/s); received \(latencies.count) of \(expected)"
)
if !latencies.isEmpty {
    say(
        "  post -> stream receipt: p50 \(ms(latencies[latencies.count / 2]))   p99 \(ms(latencies[latencies.count * 99 / 100]))   max \(ms(latencies.last!))"
    )
}
say("  process resident memory \(residentMegabytes()) MB")
readers.cancel()
try await streamClient.shutdown().get()

/// This process's resident memory, from /proc (Linux).
func residentMegabytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}
