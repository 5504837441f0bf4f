// Household benchmark (issue 9): 10,000 households with a year of chore history, then the chore list,
// statistics over a year and the activity feed through HTTP, with p50/p99 per scenario.
//
//   swift run -c release HouseholdBenchmark [households] [requests per scenario] [concurrent clients]
//   swift run -c release HouseholdBenchmark money ...   (the money scenario, MoneyBenchmark.swift)
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL
// (HTTP would take hours for millions of completions). A stand-in identity serves the JWKS whose key
// signs the members' access tokens, so requests pass the same token check as in production.
import BenchmarkSupport
import Foundation
import GRDB
import HouseholdService
import PlatformKit
import ServiceKit

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

if CommandLine.arguments.dropFirst().first == "money" {
    try await runMoneyBenchmark(CommandLine.arguments.dropFirst(2).compactMap(Int.init))
    exit(0)
}
let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let householdCount = arguments.first ?? 10_000
let requestsPerScenario = arguments.dropFirst().first ?? 5_000
let concurrency = arguments.dropFirst(2).first ?? 8
let membersPerHousehold = 4, choresPerHousehold = 8, completionsPerDay = 2, activityPerHousehold = 40
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("household-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let databasePath = folder.appendingPathComponent("household.sqlite").path

let identity = try await StandInIdentity.start()
var settings = ServiceSettings(
    service: .household, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
_ = try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))  // creates the schema

print(
    "seeding \(householdCount) households (\(membersPerHousehold) members, \(choresPerHousehold) chores, \(completionsPerDay) completions a day for a year) ..."
)
let seedStart = ContinuousClock.now
let today = Date()
let formatter = DateFormatter()
formatter.dateFormat = "yyyy-MM-dd"
formatter.timeZone = TimeZone(identifier: "UTC")
let days = (0..<365).map { formatter.string(from: today.addingTimeInterval(Double(-$0) * 86_400)) }
let pool = try DatabasePool(path: databasePath)
try pool.write { db in
    let household = try db.makeStatement(
        sql: """
            INSERT INTO households (id, name, time_zone, created_by, note_lifetime_days, created_at)
            VALUES (?, ?, 'UTC', ?, 7, ?)
            """)
    let member = try db.makeStatement(sql: "INSERT INTO members VALUES (?, ?, ?)")
    let chore = try db.makeStatement(
        sql: "INSERT INTO chores VALUES (?, ?, ?, ?, 'everyDays', 1, NULL, NULL, 'rotating', NULL, ?, ?, ?, ?)")
    let completion = try db.makeStatement(sql: "INSERT INTO completions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
    let activity = try db.makeStatement(
        sql: """
            INSERT INTO activity (household_id, kind, actor_id, subject, created_at)
            VALUES (?, 'chore_completed', ?, 'completed a chore', ?)
            """)
    for h in 0..<householdCount {
        let id = "h\(h)"
        let members = (0..<membersPerHousehold).map { "u\(h)-\($0)" }
        try household.execute(arguments: [id, "Flat \(h)", members[0], today])
        for m in members { try member.execute(arguments: [id, m, today]) }
        for c in 0..<choresPerHousehold {
            try chore.execute(arguments: [
                "c\(h)-\(c)", id, "Chore \(c)", c % 5 + 1, members.joined(separator: ","),
                members[c % membersPerHousehold],
                days[0], today,
            ])
        }
        for (d, day) in days.enumerated() {
            for k in 0..<completionsPerDay {
                let c = (d + k) % choresPerHousehold
                try completion.execute(arguments: [
                    "x\(h)-\(d)-\(k)", id, "c\(h)-\(c)", "Chore \(c)", members[(d + k) % membersPerHousehold],
                    c % 5 + 1, day,
                    day, today,
                ])
            }
        }
        for _ in 0..<activityPerHousehold { try activity.execute(arguments: [id, members[0], today]) }
    }
}
try pool.close()
print("seeded in \(ContinuousClock.now - seedStart)")

let port = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))
}
let base = "http://127.0.0.1:\(port)/v1/households/"
// Tokens for a sample of members; the service's verifier caches each after its first use.
var sample: [(household: Int, token: String)] = []
for n in 0..<1_000 {
    let h = (n * 7_919) % householdCount
    sample.append((h, try await identity.token(for: "u\(h)-0")))
}
let tokens = sample
let yearAgo = days[364]

print("\(requestsPerScenario) requests per scenario, \(concurrency) concurrent keep-alive clients, service direct:")
try await measure("warm-up (first token checks)", count: tokens.count, concurrency: concurrency) {
    get(base + "h\(tokens[$0].household)/chores", token: tokens[$0].token)
}
try await measure("chore list", count: requestsPerScenario, concurrency: concurrency) {
    let (h, token) = tokens[$0 % tokens.count]
    return get(base + "h\(h)/chores", token: token)
}
try await measure("statistics over a year", count: requestsPerScenario, concurrency: concurrency) {
    let (h, token) = tokens[$0 % tokens.count]
    return get(base + "h\(h)/statistics?from=\(yearAgo)", token: token)
}
try await measure("activity feed (last 30)", count: requestsPerScenario, concurrency: concurrency) {
    let (h, token) = tokens[$0 % tokens.count]
    return get(base + "h\(h)/activity", token: token)
}
exitRemoving(folder)
