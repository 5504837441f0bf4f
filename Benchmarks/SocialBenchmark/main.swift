// Social graph benchmark (issue 3): one user with 5,000 friends among 20,000 users; relationship
// lookups as other services make them, and the friend list with keyword search.
//
//   swift run -c release SocialBenchmark [friends] [requests per scenario] [concurrent clients]
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL.
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import GRDB
import NIOCore
import PlatformKit
import ServiceKit
import SocialService

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let friendCount = arguments.first ?? 5_000
let requestsPerScenario = arguments.dropFirst().first ?? 5_000
let concurrency = arguments.dropFirst(2).first ?? 8
let userCount = max(friendCount * 4, 1_000)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("social-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
// KEEP_DATABASE=1 keeps the seeded database (`keepsDatabase`, through `exitRemoving` at the end).
let databasePath = folder.appendingPathComponent("social.sqlite").path

let identity = try await StandInIdentity.start()
var settings = ServiceSettings(
    service: .social, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
_ = try await buildSocialApplication(SocialConfiguration(settings: settings))  // creates the schema

print("seeding \(userCount) users, the first with \(friendCount) friends (and each user with a few others) ...")
let names = ["alex", "sam", "kim", "lee", "max", "ana", "joe", "eva", "tom", "zoe"]
let pool = try DatabasePool(path: databasePath)
try pool.write { db in
    let profile = try db.makeStatement(sql: "INSERT INTO profiles VALUES (?, ?, ?, NULL, ?)")
    let friendship = try db.makeStatement(sql: "INSERT OR IGNORE INTO friendships VALUES (?, ?, ?)")
    let now = Date()
    let id = { (n: Int) in String(format: "u%06d", n) }
    for n in 0..<userCount {
        try profile.execute(arguments: [
            id(n), "\(names[n % names.count])\(n)", "\(names[(n / 10) % names.count].capitalized) Person \(n)", now,
        ])
    }
    for n in 1...friendCount { try friendship.execute(arguments: [id(0), id(n), now]) }
    for n in 1..<userCount {
        for k in 1...3 {
            let other = (n * 7 + k * 131) % userCount
            guard other != n else { continue }
            try friendship.execute(arguments: [min(id(n), id(other)), max(id(n), id(other)), now])
        }
    }
}
try pool.close()

let port = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildSocialApplication(SocialConfiguration(settings: settings))
}
let base = "http://127.0.0.1:\(port)"
let token = try await identity.token(for: "u000000")
let others = (0..<1_000).map { String(format: "u%06d", ($0 * 17) % userCount) }
let batchBody = try JSONSerialization.data(withJSONObject: ["viewer": "u000000", "others": others])

print("\(requestsPerScenario) requests per scenario, \(concurrency) concurrent keep-alive clients, service direct:")
try await measure("relationship of two users", count: requestsPerScenario, concurrency: concurrency) {
    get(
        base + SocialPaths.internalRelationship + "?a=u000000&b=" + String(format: "u%06d", $0 % userCount),
        internalToken: "bench")
}
try await measure("friend ids (\(friendCount))", count: requestsPerScenario, concurrency: concurrency) { _ in
    get(base + SocialPaths.internalUsers + "/u000000/friend-ids", internalToken: "bench")
}
try await measure("relationships with 1,000 others", count: requestsPerScenario / 5, concurrency: concurrency) { _ in
    var request = get(base + SocialPaths.internalRelationships, internalToken: "bench")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: batchBody))
    return request
}
try await measure("friends, first page", count: requestsPerScenario, concurrency: concurrency) { _ in
    get(base + SocialPaths.friends + "?limit=20", token: token)
}
try await measure("friends matching a keyword", count: requestsPerScenario, concurrency: concurrency) {
    get(base + SocialPaths.friends + "?limit=20&query=" + names[$0 % names.count] + String($0 % 50), token: token)
}
exitRemoving(folder, keeping: databasePath)
