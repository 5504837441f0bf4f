// Gazetteer benchmark (issue 47): the full gazetteer (GeoNames cities500, 234,908 places; built by
// Services/Geo/Gazetteer/make-gazetteer.py) loaded into a fresh database, then place search through HTTP to the
// service, one client, p50/p99 per kind of query: exact names (cities and villages), prefixes, a common short
// prefix, typos, several words.
//
//   swift run -c release GazetteerBenchmark [gazetteer file] [requests per query]
//
// SQLite on a temporary file by default; with DATABASE_URL, PostgreSQL (give it an empty database: the first
// start loads the gazetteer into it). The service runs in this process on loopback; a stand-in identity signs
// the token, and the social graph is a stand-in (search does not ask it).
import BenchmarkSupport
import Foundation
import GeoService
import PlatformKit
import ServiceKit

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

let arguments = Array(CommandLine.arguments.dropFirst())
let gazetteer = arguments.first ?? "Services/Geo/Gazetteer/build/cities500.tsv"
let requestsPerQuery = arguments.dropFirst().first.flatMap(Int.init) ?? 500
guard FileManager.default.fileExists(atPath: gazetteer) else {
    print("no gazetteer at \(gazetteer): build it with Services/Geo/Gazetteer/make-gazetteer.py")
    exit(1)
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let database: DatabaseLocation =
    if let url = ProcessInfo.processInfo.environment["DATABASE_URL"] {
        .postgres(try PostgresURL(url))
    } else {
        .file(folder.appendingPathComponent("geo.sqlite").path)
    }

/// Nobody has friends: search never asks.
struct NoGraph: FriendIDsLookup, FriendAndBlockedIDsLookup, SocialRelationshipsLookup {
    func friendIDs(of viewer: String) async throws -> Set<String> { [] }
    func friendAndBlockedIDs(of viewer: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
        ([], [])
    }
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] { [:] }
}

let identity = try await StandInIdentity.start()
let settings = ServiceSettings(
    service: .geo, port: 0, database: database, internalToken: "bench", identityURL: ServiceAddress(identity.url),
    logLevel: .error)
let configuration = GeoConfiguration(settings: settings, socialGraph: NoGraph(), gazetteerFile: gazetteer)
print("\(database == .file(folder.appendingPathComponent("geo.sqlite").path) ? "SQLite" : "PostgreSQL"), \(gazetteer)")
for start in ["first start (loads the gazetteer)", "second start (same file: hashed only)"] {
    let started = ContinuousClock.now
    _ = try await buildGeoApplication(configuration)
    print("  \(start): \(ContinuousClock.now - started)")
}

let port = try await startService { onListening in
    var configuration = configuration
    configuration.settings.onListening = onListening
    return try await buildGeoApplication(configuration)
}
let base = "http://127.0.0.1:\(port)"
let token = try await identity.token(for: "u1")
let kinds: [(String, [String])] = [
    ("exact, a city", ["paris", "springfield", "tokyo", "münchen", "kraków"]),
    ("exact, a village", ["hallstatt", "giethoorn", "oberammergau", "zermatt", "polzeath"]),
    ("prefix", ["san fr", "lond", "hallst", "oberamm", "giet"]),
    ("common prefix", ["san", "sa", "ber", "st", "la"]),
    ("typo", ["londn", "amsterdm", "barcleona", "halstatt", "oberamergau"]),
    ("several words", ["new york", "rio de janeiro", "sankt moritz", "unterbrunn am see", "le mans"]),
]
try await measure("warm-up", count: 200, concurrency: 1) { _ in
    get(base + GeoPaths.places + "?query=paris", token: token)
}
print("\(requestsPerQuery) requests per kind, one client:")
for (kind, queries) in kinds {
    try await measure(kind, count: requestsPerQuery, concurrency: 1) {
        let query = queries[$0 % queries.count].addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return get(base + GeoPaths.places + "?query=\(query)&limit=10", token: token)
    }
}
exitRemoving(folder)
