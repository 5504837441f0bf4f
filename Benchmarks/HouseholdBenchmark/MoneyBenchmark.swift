// Household money benchmark (issue 10): one household of 20 members with 100,000 bills, then balances
// with the settle-up plan and the first page of bills through HTTP, with p50/p99.
//
//   swift run -c release HouseholdBenchmark money [bills] [requests per scenario] [concurrent clients]
//
// Bills are seeded with SQL (and the running balances from the same numbers, as migration v3 backfills
// them); the first answer is checked against the balances summed from every share.
import BenchmarkSupport
import Foundation
import GRDB
import HouseholdService
import PlatformKit
import ServiceKit

func runMoneyBenchmark(_ arguments: [Int]) async throws {
    let billCount = arguments.first ?? 100_000
    let requests = arguments.dropFirst().first ?? 5_000
    let concurrency = arguments.dropFirst(2).first ?? 8
    let memberCount = 20
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("household-money-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let databasePath = folder.appendingPathComponent("household.sqlite").path
    let identity = try await StandInIdentity.start()
    let settings = ServiceSettings(
        service: .household, port: 0, database: .file(databasePath), internalToken: "bench",
        identityURL: ServiceAddress(identity.url), logLevel: .error)
    _ = try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))  // creates the schema

    print("seeding 1 household of \(memberCount) members with \(billCount) bills (2-20 members each, 3 currencies) ...")
    let seedStart = ContinuousClock.now
    let members = (0..<memberCount).map { "m\($0)" }
    let currencies = ["EUR", "EUR", "EUR", "USD", "GBP"]
    let pool = try DatabasePool(path: databasePath)
    let shareRows = try await pool.write { db -> Int in
        var shareRows = 0
        let now = Date()
        try db.execute(
            sql: """
                INSERT INTO households (id, name, time_zone, created_by, note_lifetime_days, created_at)
                VALUES ('h', 'Big flat', 'UTC', 'm0', 7, ?)
                """, arguments: [now])
        for member in members {
            try db.execute(sql: "INSERT INTO members VALUES ('h', ?, ?)", arguments: [member, now])
        }
        let bill = try db.makeStatement(
            sql: """
                INSERT INTO bills (id, household_id, description, amount, currency, payer_id, split_kind, created_by,
                    created_at, updated_at) VALUES (?, 'h', 'Bill', ?, ?, ?, 'equal', ?, ?, ?)
                """)
        let share = try db.makeStatement(sql: "INSERT INTO bill_shares VALUES (?, ?, ?)")
        var net: [String: [String: Int]] = [:]
        var random = SystemRandomNumberGenerator()
        for b in 0..<billCount {
            let id = String(format: "b%07d", b)
            let amount = Int.random(in: 100...50_000, using: &random)
            let currency = currencies[b % currencies.count]
            let payer = members[Int.random(in: 0..<memberCount, using: &random)]
            let among = Array(members.shuffled(using: &random).prefix(Int.random(in: 2...memberCount, using: &random)))
            let at = now.addingTimeInterval(Double(b - billCount))
            try bill.execute(arguments: [id, amount, currency, payer, payer, at, at])
            net[currency, default: [:]][payer, default: 0] += amount
            let base = amount / among.count
            for (index, member) in among.enumerated() {
                let part = base + (index < amount % among.count ? 1 : 0)
                try share.execute(arguments: [id, member, part])
                net[currency, default: [:]][member, default: 0] -= part
                shareRows += 1
            }
        }
        for (currency, balances) in net {
            for (member, amount) in balances where amount != 0 {
                try db.execute(
                    sql: "INSERT INTO member_balances VALUES ('h', ?, ?, ?)", arguments: [currency, member, amount])
            }
        }
        return shareRows
    }
    print("seeded \(shareRows) shares in \(ContinuousClock.now - seedStart)")

    // What the balances would cost summed from every share on each request (the pre-v3 way).
    let aggregateStart = ContinuousClock.now
    let aggregate = try pool.read { db in
        try Row.fetchAll(
            db,
            sql: """
                SELECT currency, payer_id AS user_id, SUM(amount) AS amount FROM bills WHERE household_id = 'h'
                GROUP BY currency, payer_id
                UNION ALL
                SELECT b.currency, s.user_id, -SUM(s.amount) FROM bill_shares s JOIN bills b ON b.id = s.bill_id
                WHERE b.household_id = 'h' GROUP BY b.currency, s.user_id
                """)
    }
    print("  summing every share once (pre-v3 balances): \(ContinuousClock.now - aggregateStart)")
    var summed: [String: [String: Int]] = [:]
    for row in aggregate { summed[row["currency"], default: [:]][row["user_id"], default: 0] += row["amount"] as Int }
    let running = try pool.read { db in
        try Row.fetchAll(db, sql: "SELECT currency, user_id, net FROM member_balances WHERE household_id = 'h'")
    }
    var stored: [String: [String: Int]] = [:]
    for row in running { stored[row["currency"], default: [:]][row["user_id"]] = row["net"] as Int }
    guard stored == summed.mapValues({ $0.filter { $0.value != 0 } }) else {
        fatalError("running balances differ from the sum over all shares")
    }
    try pool.close()

    let port = try await startService { onListening in
        var settings = settings
        settings.onListening = onListening
        return try await buildHouseholdApplication(HouseholdConfiguration(settings: settings))
    }
    let base = "http://127.0.0.1:\(port)/v1/households/h"
    var tokens: [String] = []
    for member in members { tokens.append(try await identity.token(for: member)) }
    let memberTokens = tokens
    print("\(requests) requests per scenario, \(concurrency) concurrent keep-alive clients, service direct:")
    try await measure("warm-up (first token checks)", count: memberCount * 5, concurrency: concurrency) {
        get(base + "/balances", token: memberTokens[$0 % memberCount])
    }
    try await measure("balances + settle-up plan", count: requests, concurrency: concurrency) {
        get(base + "/balances", token: memberTokens[$0 % memberCount])
    }
    try await measure("bill history (first page)", count: requests, concurrency: concurrency) {
        get(base + "/bills", token: memberTokens[$0 % memberCount])
    }
}
