// Household benchmark (issue 9): 10,000 households with a year of chore history, then the chore list,
// statistics over a year and the activity feed through HTTP, with p50/p99 per scenario.
//
//   swift run -c release HouseholdBenchmark [households] [requests per scenario] [concurrent clients]
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL
// (HTTP would take hours for millions of completions). A stand-in identity serves the JWKS whose key
// signs the members' access tokens, so requests pass the same token check as in production.
import AsyncHTTPClient
import Crypto
import Foundation
import GRDB
import HouseholdService
import Hummingbird
import JWTKit
import Logging
import NIOCore
import PlatformKit
import ServiceKit
import ServiceLifecycle

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let householdCount = arguments.first ?? 10_000
let requestsPerScenario = arguments.dropFirst().first ?? 5_000
let concurrency = arguments.dropFirst(2).first ?? 8
let membersPerHousehold = 4, choresPerHousehold = 8, completionsPerDay = 2, activityPerHousehold = 40
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("household-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let databasePath = folder.appendingPathComponent("household.sqlite").path

// A stand-in identity: the JWKS of a key we hold, and no profiles.
let signingKey = Curve25519.Signing.PrivateKey()
let keys = JWTKeyCollection()
await keys.add(eddsa: EdDSA.PrivateKey(backing: signingKey), kid: "bench")
let jwks =
    #"{"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","kid":"bench","x":"\#(signingKey.publicKey.rawRepresentation.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))"}]}"#
let identityRouter = Router()
identityRouter.get("/v1/auth/jwks") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: jwks)))
}
identityRouter.post("/internal/users/batch") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: #"{"users":[]}"#)))
}

/// Runs `service` in the background and returns its port.
func start(_ build: (@escaping @Sendable (Int) async -> Void) async throws -> any Service) async throws -> Int {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let service = try await build { continuation.yield($0) }
    let group = ServiceGroup(configuration: .init(services: [service], logger: .init(label: "bench")))
    Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    return await iterator.next() ?? 0
}

let identityPort = try await start { onListening in
    var logger = Logger(label: "stand-in-identity")
    logger.logLevel = .error
    return Application(
        router: identityRouter, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: logger)
}

// Create the schema through the service itself, then seed it in bulk.
let clock = WallClock.system
var settings = ServiceSettings(
    service: .household, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: "http://127.0.0.1:\(identityPort)", logLevel: .error, clock: clock)
_ = try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))

print(
    "seeding \(householdCount) households (\(membersPerHousehold) members, \(choresPerHousehold) chores, \(completionsPerDay) completions a day for a year) ..."
)
let seedStart = ContinuousClock.now
let pool = try DatabasePool(path: databasePath)
let today = Date()
try pool.write { db in
    let household = try db.makeStatement(sql: "INSERT INTO households VALUES (?, ?, 'UTC', ?, 7, ?)")
    let member = try db.makeStatement(sql: "INSERT INTO members VALUES (?, ?, ?)")
    let chore = try db.makeStatement(
        sql: """
            INSERT INTO chores VALUES (?, ?, ?, ?, 'everyDays', 1, NULL, NULL, 'rotating', NULL, ?, ?, ?, ?)
            """)
    let completion = try db.makeStatement(sql: "INSERT INTO completions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
    let activity = try db.makeStatement(
        sql:
            "INSERT INTO activity (household_id, kind, actor_id, subject, created_at) VALUES (?, 'chore_completed', ?, 'completed a chore', ?)"
    )
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    let days = (0..<365).map { formatter.string(from: today.addingTimeInterval(Double(-$0) * 86_400)) }
    for h in 0..<householdCount {
        let id = "h\(h)"
        let members = (0..<membersPerHousehold).map { "u\(h)-\($0)" }
        try household.execute(arguments: [id, "Flat \(h)", members[0], today])
        for m in members { try member.execute(arguments: [id, m, today]) }
        for c in 0..<choresPerHousehold {
            try chore.execute(arguments: [
                "c\(h)-\(c)", id, "Chore \(c)", c % 5 + 1, members.joined(separator: ","),
                members[c % membersPerHousehold], days[0], today,
            ])
        }
        for (d, day) in days.enumerated() {
            for k in 0..<completionsPerDay {
                let c = (d + k) % choresPerHousehold
                try completion.execute(arguments: [
                    "x\(h)-\(d)-\(k)", id, "c\(h)-\(c)", "Chore \(c)", members[(d + k) % membersPerHousehold],
                    c % 5 + 1, day, day, today,
                ])
            }
        }
        for _ in 0..<activityPerHousehold { try activity.execute(arguments: [id, members[0], today]) }
    }
}
try pool.close()
print("seeded in \(ContinuousClock.now - seedStart)")

settings.onListening = nil
let servicePort = try await start { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))
}

// Tokens for a sample of members; the service's verifier caches each after its first use.
var tokens: [(household: Int, token: String)] = []
for sample in 0..<1_000 {
    let h = (sample * 7_919) % householdCount
    let claims = AccessTokenClaims(userID: "u\(h)-0", sessionID: "s", roles: [], issuedAt: Date(), lifetime: 3_600)
    tokens.append((h, try await keys.sign(claims, kid: "bench")))
}
let tokenList = tokens
let yearAgo = { () -> String in
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: today.addingTimeInterval(-364 * 86_400))
}()

/// Sends `count` requests from `concurrency` workers; prints requests/s, p50, p99.
func measure(_ name: String, count: Int, path: @escaping @Sendable (Int) -> String) async throws {
    let base = "http://127.0.0.1:\(servicePort)"
    let started = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var latencies: [Duration] = []
                for index in stride(from: worker, to: count, by: concurrency) {
                    let (household, token) = tokenList[index % tokenList.count]
                    var request = HTTPClientRequest(url: base + path(household))
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    let start = ContinuousClock.now
                    let response = try await HTTPClient.platform.execute(request, timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 1 << 22)
                    latencies.append(ContinuousClock.now - start)
                    guard response.status == .ok else { fatalError("\(name): status \(response.status)") }
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }.sorted()
    }
    let elapsed = ContinuousClock.now - started
    func ms(_ d: Duration) -> String {
        String(format: "%.2f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let label = name.padding(toLength: 30, withPad: " ", startingAt: 0)
    print(
        "  \(label) \(String(format: "%8.0f", Double(count) / seconds)) req/s   p50 \(ms(latencies[latencies.count / 2]))   p99 \(ms(latencies[latencies.count * 99 / 100]))"
    )
}

print("\(requestsPerScenario) requests per scenario, \(concurrency) concurrent keep-alive clients, service direct:")
try await measure("warm-up (token checks)", count: tokenList.count) { "/v1/households/h\($0)/chores" }
try await measure("chore list", count: requestsPerScenario) { "/v1/households/h\($0)/chores" }
try await measure("statistics over a year", count: requestsPerScenario) {
    "/v1/households/h\($0)/statistics?from=\(yearAgo)"
}
try await measure("activity feed (last 30)", count: requestsPerScenario) { "/v1/households/h\($0)/activity" }
exit(0)
