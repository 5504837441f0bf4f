// Geo benchmark (issue 6): 1,000,000 pins of 100,000 users around real cities (weighted by population),
// then through HTTP to the service: a city-sized bounding box (clustered and zoomed in), a clustered
// world view, and place search, with p50/p99 per scenario.
//
//   swift run -c release GeoBenchmark [pins] [requests per scenario] [concurrent clients]
//
// The service runs in this process on loopback with a temporary database, seeded directly with SQL (the
// triggers keep the R*Tree and the cluster cells as the service's own writes do). A stand-in identity
// serves the JWKS that signs the viewers' tokens; the social graph is an in-process stand-in (every user
// has 20 friends), so the figures are the geo service's own cost.
import BenchmarkSupport
import Foundation
import GRDB
import GeoService
import PlatformKit
import ServiceKit

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let pinCount = arguments.first ?? 1_000_000
let requestsPerScenario = arguments.dropFirst().first ?? 2_000
let concurrency = arguments.dropFirst(2).first ?? 4
let userCount = max(1, pinCount / 10)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geo-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let databasePath = folder.appendingPathComponent("geo.sqlite").path

/// Twenty friends per user, nobody blocked.
struct StandInGraph: FriendIDsLookup, FriendAndBlockedIDsLookup, SocialRelationshipsLookup {
    let users: Int
    func friendIDs(of viewer: String) async throws -> Set<String> {
        let n = Int(viewer.dropFirst()) ?? 0
        return Set((1...20).map { "u\((n + $0 * 4_999) % users)" })
    }
    func friendAndBlockedIDs(of viewer: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
        (try await friendIDs(of: viewer), [])
    }
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
        let friends = try await friendIDs(of: viewer)
        return Dictionary(
            uniqueKeysWithValues: others.map { ($0, SocialFacts(friends: friends.contains($0), blocked: false)) })
    }
}

let identity = try await StandInIdentity.start()
var settings = ServiceSettings(
    service: .geo, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
let graph = StandInGraph(users: userCount)
let loadStart = ContinuousClock.now
_ = try await buildGeoApplication(GeoConfiguration(settings: settings, socialGraph: graph))  // schema + gazetteer
print("gazetteer loaded in \(ContinuousClock.now - loadStart)")

// Cities by population, to draw pins where people travel.
let pool = try DatabasePool(path: databasePath)
let cities = try pool.read { db in
    try Row.fetchAll(db, sql: "SELECT latitude, longitude, population, name FROM places ORDER BY population DESC")
        .map {
            (latitude: $0[0] as Double, longitude: $0[1] as Double, population: $0[2] as Int, name: $0[3] as String)
        }
}

/// Draws a city with probability proportional to its population.
struct CitySampler {
    let cumulative: [Int]

    init(_ populations: [Int]) {
        var running = 0
        cumulative = populations.map {
            running += $0
            return running
        }
    }

    func next(using random: inout some RandomNumberGenerator) -> Int {
        let target = Int.random(in: 0..<(cumulative.last ?? 1), using: &random)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
let sampler = CitySampler(cities.map(\.population))

print("seeding \(pinCount) pins of \(userCount) users ...")
let seedStart = ContinuousClock.now
let now = Date()
try pool.write { db in
    var random = SystemRandomNumberGenerator()
    let insert = try db.makeStatement(
        sql: """
            INSERT INTO pins (user_id, latitude, longitude, place_name, country_code, created_at, updated_at)
            VALUES (?, ?, ?, ?, NULL, ?, ?)
            """)
    for index in 0..<pinCount {
        let city = cities[sampler.next(using: &random)]
        let latitude = min(90, max(-90, city.latitude + Double.random(in: -0.08...0.08, using: &random)))
        var longitude = city.longitude + Double.random(in: -0.1...0.1, using: &random)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        try insert.execute(arguments: ["u\(index % userCount)", latitude, longitude, city.name, now, now])
    }
}
try pool.write { db in try db.execute(sql: "ANALYZE") }
try pool.close()
print("seeded in \(ContinuousClock.now - seedStart)")

let port = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildGeoApplication(GeoConfiguration(settings: settings, socialGraph: graph))
}
let base = "http://127.0.0.1:\(port)"
var sample: [String] = []
for n in 0..<500 { sample.append(try await identity.token(for: "u\((n * 7_919) % userCount)")) }
let tokens = sample
let bigCities = Array(cities.prefix(300))
let queries = [
    "paris", "tokyo", "new york", "sao paulo", "münchen", "zurich", "barcleona", "amsterdma", "lond", "san fr",
    "rio de", "kraków", "reykjavik", "cape town", "lisboa", "wien", "praha", "buenos", "mexico", "istanbul",
]

func cityBox(_ index: Int) -> String {
    let city = bigCities[(index * 31) % bigCities.count]
    return "\(city.longitude - 0.15),\(city.latitude - 0.1),\(city.longitude + 0.15),\(city.latitude + 0.1)"
}
try await measure("warm-up (first token checks)", count: tokens.count, concurrency: concurrency) {
    get(base + GeoPaths.colors, token: tokens[$0])
}
// One client shows the service's own latency; more show it queueing on the machine's cores.
for clients in [1, concurrency] {
    print("\(requestsPerScenario) requests per scenario, \(clients) concurrent keep-alive clients, service direct:")
    try await measure("city bbox, zoom 11 (clusters)", count: requestsPerScenario, concurrency: clients) {
        get(base + GeoPaths.map + "?bbox=\(cityBox($0))&zoom=11", token: tokens[$0 % tokens.count])
    }
    try await measure("city bbox, zoom 15 (pins or clusters)", count: requestsPerScenario, concurrency: clients) {
        get(base + GeoPaths.map + "?bbox=\(cityBox($0))&zoom=15", token: tokens[$0 % tokens.count])
    }
    try await measure("world view, zoom 2 (clusters)", count: requestsPerScenario, concurrency: clients) {
        get(base + GeoPaths.map + "?bbox=-180,-85,180,85&zoom=2", token: tokens[$0 % tokens.count])
    }
    try await measure("place search", count: requestsPerScenario, concurrency: clients) {
        let query = queries[$0 % queries.count].addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return get(base + GeoPaths.places + "?query=\(query)", token: tokens[$0 % tokens.count])
    }
}
exitRemoving(folder)
