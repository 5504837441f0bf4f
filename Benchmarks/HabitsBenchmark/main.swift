// Habits benchmark (issue 8): 10,000 users and 2,000,000 events, then today's list, a history page with
// each filter and tab, and statistics of habits with 5 years of daily events, with p50/p99 per scenario.
//
//   swift run -c release HabitsBenchmark [users] [events] [requests per scenario] [concurrent clients]
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL in one
// transaction through prepared statements. A stand-in identity signs the access tokens; a fixed follow
// graph stands in for the social service (each user follows the next 20), so the figures leave out the
// internal call the friends and all tabs make to the social service.
import BenchmarkSupport
import Foundation
import GRDB
import HabitsService
import PlatformKit
import ServiceKit

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()
let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let userCount = arguments.first ?? 10_000
let eventCount = arguments.dropFirst().first ?? 2_000_000
let requestsPerScenario = arguments.dropFirst(2).first ?? 3_000
let concurrency = arguments.dropFirst(3).first ?? 8
let habitsPerUser = 4, followeesPerUser = 20, longHistoryDays = 5 * 365 + 1
/// Every 100th user's first habit has a daily event for 5 years.
let longUsers = stride(from: 0, to: userCount, by: 100).map { $0 }
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("habits-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
// KEEP_DATABASE=1 keeps the seeded database (`keepsDatabase`, through `exitRemoving` at the end).
// SEEDED_DATABASE=<path> reuses a database a KEEP_DATABASE run left behind (its users and events counts must match).
let seededPath = ProcessInfo.processInfo.environment["SEEDED_DATABASE"]
let databasePath = seededPath ?? folder.appendingPathComponent("habits.sqlite").path

/// Each user follows the next `followeesPerUser` users (with approval).
struct FixedFollowGraph: FollowingIDsLookup {
    let users: Int
    let count: Int
    func followingIDs(of userID: String, requestID: String?) async throws -> [String] {
        guard let n = Int(userID.dropFirst()) else { return [] }
        return (1...count).map { "u\((n + $0) % users)" }
    }
}

let identity = try await StandInIdentity.start()
let settings = ServiceSettings(
    service: .habits, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
let graph = FixedFollowGraph(users: userCount, count: followeesPerUser)
_ = try await buildHabitsApplication(HabitsConfiguration(settings: settings, followGraph: graph))  // schema

let formatter = DateFormatter()
formatter.dateFormat = "yyyy-MM-dd"
formatter.timeZone = TimeZone(identifier: "UTC")
let now = Date()
let days = (0..<longHistoryDays).map { formatter.string(from: now.addingTimeInterval(Double(-$0 - 1) * 86_400)) }
let habitCount = userCount * habitsPerUser
let longEvents = longUsers.count * longHistoryDays
let shortHabits = habitCount - longUsers.count
let perShort = max(0, eventCount - longEvents) / max(shortHabits, 1)
let extra = max(0, eventCount - longEvents) - perShort * shortHabits
let zones = ["UTC", "Pacific/Auckland", "Pacific/Honolulu", "America/New_York", "Europe/Paris"]
let words = ["park loop", "felt great", "tired", "rainy", "with Sam", "early", "late", "easy", "hard", "new record"]
/// Each user's home, scattered over a large area so that 5 km around it holds mostly their own events.
func home(_ u: Int) -> (Double, Double) {
    (30 + Double((u * 7_919) % 3_000) / 100, -120 + Double((u * 104_729) % 12_000) / 100)
}

if seededPath == nil {
    print(
        "seeding \(userCount) users, \(habitCount) habits, \(eventCount) events (\(longUsers.count) habits with 5 years) ..."
    )
    let seedStart = ContinuousClock.now
    let pool = try DatabasePool(path: databasePath)
    var inserted = 0
    try pool.write { db in
        let preference = try db.makeStatement(sql: "INSERT INTO preferences VALUES (?, ?)")
        let habit = try db.makeStatement(
            sql: "INSERT INTO habits VALUES (?, ?, ?, '', 127, ?, ?, ?)")
        let event = try db.makeStatement(
            sql: """
                INSERT INTO events (habit_id, user_id, day, comment, latitude, longitude, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var shortIndex = 0
        for u in 0..<userCount {
            let user = "u\(u)"
            try preference.execute(arguments: [user, zones[u % zones.count]])
            let (lat, lon) = home(u)
            for k in 0..<habitsPerUser {
                let id = "h\(u)-\(k)"
                let isLong = k == 0 && u % 100 == 0
                let length: Int
                if isLong {
                    length = longHistoryDays
                } else {
                    length = perShort + (shortIndex < extra ? 1 : 0)
                    shortIndex += 1
                }
                try habit.execute(arguments: [id, user, "Habit \(k)", days[min(length, days.count) - 1], now, now])
                for d in 0..<min(length, days.count) {
                    let located = (d + k) % 3 == 0
                    let jitter = Double((d * 31 + k * 17) % 100) / 4_000  // up to 0.025 degrees
                    try event.execute(arguments: [
                        id, user, days[d], d % 2 == 0 ? words[(d + u) % words.count] : nil,
                        located ? lat + jitter : nil, located ? lon - jitter : nil, now, now,
                    ])
                    inserted += 1
                }
            }
        }
    }
    try pool.close()
    print(
        "seeded \(inserted) events in \(ContinuousClock.now - seedStart)\(keepsDatabase ? " at \(databasePath)" : "")")
}

let port = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildHabitsApplication(HabitsConfiguration(settings: settings, followGraph: graph))
}
let base = "http://127.0.0.1:\(port)/v1/habits"
var sample: [(user: Int, token: String)] = []
for n in 0..<1_000 {
    let u = (n * 7_919) % userCount
    sample.append((u, try await identity.token(for: "u\(u)")))
}
var longSample: [(user: Int, token: String)] = []
for u in longUsers.prefix(100) { longSample.append((u, try await identity.token(for: "u\(u)"))) }
let tokens = sample
let longTokens = longSample

print("\(requestsPerScenario) requests per scenario, \(concurrency) concurrent keep-alive clients, service direct:")
try await measure("warm-up (first token checks)", count: tokens.count, concurrency: concurrency) {
    get(base + "/today", token: tokens[$0].token)
}
try await measure("today's list", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/today", token: tokens[$0 % tokens.count].token)
}
try await measure("my habits with status", count: requestsPerScenario, concurrency: concurrency) {
    get(base, token: tokens[$0 % tokens.count].token)
}
try await measure("history, mine", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/history", token: tokens[$0 % tokens.count].token)
}
try await measure("history, by habit", count: requestsPerScenario, concurrency: concurrency) {
    let (u, token) = tokens[$0 % tokens.count]
    return get(base + "/history?habit=h\(u)-1", token: token)
}
try await measure("history, by comment", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/history?comment=park", token: tokens[$0 % tokens.count].token)
}
try await measure("history, near me (5 km)", count: requestsPerScenario, concurrency: concurrency) {
    let (u, token) = tokens[$0 % tokens.count]
    let (lat, lon) = home(u)
    return get(base + "/history?latitude=\(lat)&longitude=\(lon)", token: token)
}
try await measure("history map (GeoJSON), near me", count: requestsPerScenario, concurrency: concurrency) {
    let (u, token) = tokens[$0 % tokens.count]
    let (lat, lon) = home(u)
    return get(base + "/history/map?latitude=\(lat)&longitude=\(lon)", token: token)
}
try await measure("history, friends tab (20 follows)", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/history?tab=friends", token: tokens[$0 % tokens.count].token)
}
try await measure("history, all tab (me + 20 follows)", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/history?tab=all", token: tokens[$0 % tokens.count].token)
}
try await measure("history, all tab + comment filter", count: requestsPerScenario, concurrency: concurrency) {
    get(base + "/history?tab=all&comment=rain", token: tokens[$0 % tokens.count].token)
}
try await measure("statistics, 5 years of daily events", count: requestsPerScenario, concurrency: concurrency) {
    let (u, token) = longTokens[$0 % longTokens.count]
    return get(base + "/h\(u)-0/statistics", token: token)
}
exitRemoving(folder, keeping: databasePath)
