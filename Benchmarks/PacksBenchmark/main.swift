// Packs benchmark (issue 7): 10,000 packs around 20 cities and 500,000 anonymous posts (with votes and
// comments), then through HTTP to the geo service: discover near a point, the top and new feeds of a user in 30
// packs; then the expiry sweep of 2,000 packs holding 100,000 posts while requests keep coming.
//
//   swift run -c release PacksBenchmark [packs] [posts] [requests per scenario] [concurrent clients]
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL in the
// service's own schema; a stand-in identity signs the tokens. The figures are the geo service's own cost.
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import GRDB
import GeoService
import PlatformKit
import ServiceKit
import Synchronization

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let packCount = arguments.first ?? 10_000
let postCount = arguments.dropFirst().first ?? 500_000
let requestsPerScenario = arguments.dropFirst(2).first ?? 2_000
let concurrency = arguments.dropFirst(3).first ?? 4
let userCount = 5_000
let packsPerUser = 30
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packs-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let databasePath = folder.appendingPathComponent("geo.sqlite").path

let cities: [(latitude: Double, longitude: Double)] = [
    (48.857, 2.352), (51.507, -0.128), (40.713, -74.006), (35.690, 139.692), (52.520, 13.405), (41.390, 2.154),
    (-23.550, -46.633), (37.775, -122.419), (45.464, 9.190), (59.329, 18.069), (-33.869, 151.209),
    (19.433, -99.133), (55.756, 37.617), (1.352, 103.820), (43.651, -79.383), (50.075, 14.438), (38.722, -9.139),
    (52.370, 4.895), (47.498, 19.040), (-34.604, -58.382),
]

let identity = try await StandInIdentity.start()
var settings = ServiceSettings(
    service: .geo, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
_ = try await buildGeoApplication(GeoConfiguration(settings: settings, loadGazetteer: false))  // the schema

print("seeding \(packCount) packs, \(postCount) posts, \(userCount) users in \(packsPerUser) packs each ...")
let seedStart = ContinuousClock.now
let now = Date()
let pool = try DatabasePool(path: databasePath)
try pool.write { db in
    var random = SplitMix64(state: 7)
    let packsPerCity = max(1, packCount / cities.count)
    let insertPack = try db.makeStatement(
        sql: """
            INSERT INTO packs (id, name, latitude, longitude, radius_meters, tags, color, icon, locked, alpha_id,
                official, member_count, post_count, up_votes, down_votes, created_at, expires_at, warned)
            VALUES (?, ?, ?, ?, ?, ?, '#FF8800', 'paw', ?, ?, 0, 0, 0, 0, 0, ?, ?, 0)
            """)
    let tags = ["campus", "food", "music", "sport", "study", "party", "news", "games"]
    for id in 1...packCount {
        let city = cities[(id - 1) / packsPerCity % cities.count]
        let created = now.addingTimeInterval(-Double.random(in: 0...20 * 3600, using: &random))
        try insertPack.execute(arguments: [
            id, "Pack \(id)", city.latitude + Double.random(in: -0.12...0.12, using: &random),
            city.longitude + Double.random(in: -0.16...0.16, using: &random),
            Int.random(in: 300...3_000, using: &random),
            "[\"\(tags[id % tags.count])\",\"\(tags[(id / 3) % tags.count])\"]", id % 10 < 3, "u\(id % userCount)",
            created, created.addingTimeInterval(30 * 3600),
        ])
    }
    // Each user is in 30 packs of one city.
    let insertMember = try db.makeStatement(
        sql:
            "INSERT OR IGNORE INTO pack_members (pack_id, user_id, pseudonym, active, joined_at) VALUES (?, ?, ?, 1, ?)"
    )
    for user in 0..<userCount {
        let city = user % cities.count
        for index in 0..<packsPerUser {
            let pack = city * packsPerCity + (user / cities.count * 7 + index * 13) % packsPerCity + 1
            try insertMember.execute(arguments: [pack, "u\(user)", "Name \(user)", now])
        }
    }
    let insertPost = try db.makeStatement(
        sql: """
            INSERT INTO posts (id, pack_id, author_id, pseudonym, title, body, tags, up_votes, down_votes,
                comment_count, hot, hidden, created_at)
            VALUES (?, ?, ?, 'Name', ?, 'Some words about what is happening around here right now.', '[]', ?, ?, ?, ?, 0, ?)
            """)
    let insertVote = try db.makeStatement(sql: "INSERT OR IGNORE INTO votes (post_id, user_id, value) VALUES (?, ?, ?)")
    let insertComment = try db.makeStatement(
        sql:
            "INSERT INTO comments (post_id, author_id, pseudonym, body, created_at) VALUES (?, ?, 'Name', 'Same here', ?)"
    )
    for id in 1...postCount {
        let pack = Int.random(in: 1...packCount, using: &random)
        let up = Int.random(in: 0...4, using: &random)
        let down = Int.random(in: 0...2, using: &random)
        let comments = Int.random(in: 0...1, using: &random)
        let created = now.addingTimeInterval(-Double.random(in: 0...20 * 3600, using: &random))
        let score = Double(up - down)
        let hot =
            (score > 0 ? 1 : score < 0 ? -1 : 0) * log10(max(abs(score), 1)) + created.timeIntervalSince1970 / 45_000
        try insertPost.execute(arguments: [
            id, pack, "u\(Int.random(in: 0..<userCount, using: &random))", "Post \(id)", up, down, comments, hot,
            created,
        ])
        for voter in 0..<(up + down) {
            try insertVote.execute(arguments: [id, "u\(voter * 101 % userCount)", voter < up ? 1 : -1])
        }
        for _ in 0..<comments { try insertComment.execute(arguments: [id, "u\(id % userCount)", created]) }
    }
    try db.execute(
        sql: """
            UPDATE packs SET member_count = (SELECT count(*) FROM pack_members WHERE pack_id = packs.id),
                post_count = (SELECT count(*) FROM posts WHERE pack_id = packs.id);
            ANALYZE;
            """)
}
print("seeded in \(ContinuousClock.now - seedStart)")

let built = Mutex<GeoJobs?>(nil)
let port = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildGeoApplication(
        GeoConfiguration(
            settings: settings, loadGazetteer: false,
            jobsBuilt: { jobs in built.withLock { $0 = jobs } }, packMaintenanceInterval: .seconds(86_400)))
}
let jobs = built.withLock { $0 }!
let base = "http://127.0.0.1:\(port)"
var sample: [String] = []
for n in 0..<500 { sample.append(try await identity.token(for: "u\((n * 7_919) % userCount)")) }
let tokens = sample

/// A GET from the i-th sampled user, standing in the centre of their packs' city.
@Sendable func request(_ path: String, _ index: Int) -> HTTPClientRequest {
    var request = get(base + path, token: tokens[index % tokens.count])
    let user = (index % tokens.count * 7_919) % userCount
    let city = cities[user % cities.count]
    let jitter = Double(index % 17) / 200
    request.headers.add(name: "Geo-Position", value: "\(city.latitude + jitter);\(city.longitude - jitter)")
    return request
}

try await measure("warm-up (first token checks)", count: tokens.count, concurrency: concurrency) {
    request(GeoPaths.packs + "/mine", $0)
}
for clients in [1, concurrency] {
    print("\(requestsPerScenario) requests per scenario, \(clients) concurrent keep-alive clients, service direct:")
    try await measure("discover packs near me (distance)", count: requestsPerScenario, concurrency: clients) {
        request(GeoPaths.discover + "/packs", $0)
    }
    try await measure("discover packs (popularity, tag)", count: requestsPerScenario, concurrency: clients) {
        request(GeoPaths.discover + "/packs?sort=popularity&tags=music", $0)
    }
    try await measure("discover posts near me (popularity)", count: requestsPerScenario, concurrency: clients) {
        request(GeoPaths.discover + "/posts?sort=popularity", $0)
    }
    try await measure("top feed, user in 30 packs", count: requestsPerScenario, concurrency: clients) {
        request(GeoPaths.feed + "?sort=top", $0)
    }
    try await measure("new feed, user in 30 packs", count: requestsPerScenario, concurrency: clients) {
        request(GeoPaths.feed, $0)
    }
}

// The expiry sweep: 2,000 packs (a fifth of them) expire, holding about 100,000 posts.
let expiring = Int64(packCount / 5)
try pool.write { db in
    try db.execute(
        sql: "UPDATE packs SET expires_at = ? WHERE id <= ?", arguments: [now.addingTimeInterval(-60), expiring])
}
let doomedPosts = try pool.read { db in
    try Int.fetchOne(db, sql: "SELECT count(*) FROM posts WHERE pack_id <= ?", arguments: [expiring]) ?? 0
}
print("sweeping \(expiring) expired packs with \(doomedPosts) posts while \(concurrency) clients read and join:")
let sweepStart = ContinuousClock.now
let sweepFinished = Mutex(false)
let sweep = Task {
    let report = try await jobs.maintainPacks(now: Date())
    sweepFinished.withLock { $0 = true }
    return report
}
var round = 0
repeat {
    round += 1
    let offset = round * 1_000
    try await measure("sweep: feed, discover, join #\(round)", count: 1_000, concurrency: concurrency) {
        switch $0 % 3 {
        case 0: return request(GeoPaths.feed + "?sort=top", $0)
        case 1: return request(GeoPaths.discover + "/packs", $0)
        default:
            // A write: joining an open pack that is not expiring (ids above the expired fifth; open: id % 10 >= 3).
            let pack = Int(expiring) + 1 + ((offset + $0) * 37 % (packCount - Int(expiring))) / 10 * 10 + 5
            var join = request(GeoPaths.packs + "/\(min(pack, packCount - 4))/membership", $0)
            join.method = .PUT
            return join
        }
    }
} while !sweepFinished.withLock({ $0 }) && round < 60
let report = try await sweep.value
print(
    "  swept \(report.flushedPacks) packs, \(report.flushedPosts) posts in \(ContinuousClock.now - sweepStart) (in batches of \(PackMaintenance.sweepBatch))"
)
exitRemoving(folder)
