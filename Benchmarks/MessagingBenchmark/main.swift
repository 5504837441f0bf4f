// Messaging benchmark (issue 4): 1,000 users, 200 groups with 10 topics each, 1,000,000 messages, then
// through the gateway: the latest 50 in a topic, unread counts of a user in 50 groups, the conversation list,
// keyword search at three word frequencies, and send throughput; p50/p99 per scenario.
//
//   swift run -c release MessagingBenchmark [messages] [requests per scenario] [concurrent clients]
//
// The service and the gateway run in this process on loopback with a temporary database, seeded directly
// with SQL in one transaction (prepared statements). A stand-in identity serves the JWKS whose key signs
// the users' access tokens; a stand-in social graph says everyone is a friend (seeding bypasses it anyway).
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import GRDB
import GatewayService
import MessagingService
import NIOCore
import PlatformKit
import ServiceKit

// Concurrency on the event loops, as the services' executables run it.
EventLoopExecutor.install()

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let messageCount = arguments.first ?? 1_000_000
let requestsPerScenario = arguments.dropFirst().first ?? 5_000
let concurrency = arguments.dropFirst(2).first ?? 8
let userCount = 1_000, groupCount = 200, membersPerGroup = 25, topicsPerGroup = 10, myGroups = 50
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messaging-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
// KEEP_DATABASE=1 keeps the seeded database (`keepsDatabase`, through `exitRemoving` at the end).
// SEEDED_DATABASE=<path> reuses a database a KEEP_DATABASE run left behind (seeding takes minutes).
let seededPath = ProcessInfo.processInfo.environment["SEEDED_DATABASE"]
let databasePath = seededPath ?? folder.appendingPathComponent("messaging.sqlite").path

/// Everyone is a friend, nobody is blocked.
struct EveryoneFriends: SocialGraph {
    func relationship(_ a: String, _ b: String) async throws -> SocialFacts {
        SocialFacts(friends: true, blocked: false)
    }
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
        Dictionary(uniqueKeysWithValues: others.map { ($0, SocialFacts(friends: true, blocked: false)) })
    }
}

// A 5,000-word vocabulary used with Zipf frequencies (rank r drawn with probability ~ 1/r), like real text.
let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "fi", "gu", "he", "ja", "be"]
let vocabulary: [String] = (0..<5_000).map { (n: Int) -> String in
    let suffix = n >= 4_096 ? "x" : ""
    return syllables[n % 16] + syllables[(n / 16) % 16] + syllables[(n / 256) % 16] + suffix
}
let zipfCumulative: [Double] = {
    var sum = 0.0
    return vocabulary.indices.map { rank in
        sum += 1.0 / Double(rank + 1)
        return sum
    }
}()
func word(_ random: inout SplitMix64) -> String {
    let target = Double.random(in: 0..<zipfCumulative.last!, using: &random)
    var low = 0, high = zipfCumulative.count - 1
    while low < high {
        let mid = (low + high) / 2
        if zipfCumulative[mid] < target { low = mid + 1 } else { high = mid }
    }
    return vocabulary[low]
}

let identity = try await StandInIdentity.start()
var settings = ServiceSettings(
    service: .messaging, port: 0, database: .file(databasePath), internalToken: "bench",
    identityURL: ServiceAddress(identity.url),
    logLevel: .error)
_ = try await buildMessagingApplication(MessagingConfiguration(settings: settings, socialGraph: EveryoneFriends()))

print(
    "seeding \(userCount) users, \(groupCount) groups of \(membersPerGroup) with \(topicsPerGroup) topics, \(messageCount) messages ..."
)
let seedStart = ContinuousClock.now
let user = { (n: Int) in String(format: "u%04d", n) }
let group = { (n: Int) in String(format: "g%03d", n) }
var members: [[Int]] = []
let pool = try DatabasePool(path: databasePath)
if seededPath != nil {
    // The same deterministic membership as the seeding below.
    for g in 0..<groupCount {
        var ids = Set((0..<membersPerGroup).map { (g * 5 + $0 * 40 + 1) % userCount })
        if g < myGroups { ids.insert(0) } else { ids.remove(0) }
        members.append(ids.sorted())
    }
} else {
    try pool.write { db in
        var random = SplitMix64(state: 42)
        let now = Date()
        let conversation = try db.makeStatement(
            sql:
                "INSERT INTO conversations (id, kind, name, created_by, created_at, activity) VALUES (?, 'group', ?, ?, ?, 0)"
        )
        let member = try db.makeStatement(
            sql:
                "INSERT INTO members (conversation_id, user_id, role, muted, last_read_id, joined_at) VALUES (?, ?, ?, 0, 0, ?)"
        )
        let topic = try db.makeStatement(
            sql:
                "INSERT INTO topics (id, conversation_id, name, created_by, created_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?)"
        )
        for g in 0..<groupCount {
            // u0000 is in the first 50 groups; the others are spread evenly.
            var ids = Set((0..<membersPerGroup).map { (g * 5 + $0 * 40 + 1) % userCount })
            if g < myGroups { ids.insert(0) } else { ids.remove(0) }
            let list = ids.sorted()
            members.append(list)
            try conversation.execute(arguments: [group(g), "Group \(g)", user(list[0]), now])
            for (index, m) in list.enumerated() {
                try member.execute(arguments: [group(g), user(m), index == 0 ? "admin" : "member", now])
            }
            for t in 0..<topicsPerGroup {
                try topic.execute(arguments: [
                    g * topicsPerGroup + t + 1, group(g), "topic \(t)", user(list[0]), now, now,
                ])
            }
        }
        let message = try db.makeStatement(
            sql:
                "INSERT INTO messages (id, conversation_id, topic_id, sender_id, text, created_at) VALUES (?, ?, ?, ?, ?, ?)"
        )
        for id in 1...messageCount {
            let g = Int.random(in: 0..<groupCount, using: &random)
            let t = Int.random(in: 0..<(topicsPerGroup + 2), using: &random)
            let sender = members[g][Int.random(in: 0..<members[g].count, using: &random)]
            let text = (0..<Int.random(in: 6...18, using: &random)).map { _ in word(&random) }.joined(separator: " ")
            try message.execute(arguments: [
                id, group(g), t < topicsPerGroup ? g * topicsPerGroup + t + 1 : nil, user(sender), text,
                now.addingTimeInterval(Double(id - messageCount)),
            ])
        }
        try db.execute(
            sql: """
                UPDATE conversations SET last_message_id = (SELECT MAX(id) FROM messages m WHERE m.conversation_id = conversations.id);
                UPDATE conversations SET activity = COALESCE(last_message_id, 0);
                UPDATE topics SET last_message_id = (SELECT MAX(id) FROM messages m WHERE m.topic_id = topics.id);
                """)
        // Everyone has read all but the last 0-100 messages of each group; u0000 follows two topics per group
        // and mutes one.
        for g in 0..<groupCount {
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 101",
                arguments: [group(g)])
            for m in members[g] {
                try db.execute(
                    sql: "UPDATE members SET last_read_id = ? WHERE conversation_id = ? AND user_id = ?",
                    arguments: [ids[Int.random(in: 0..<ids.count, using: &random)], group(g), user(m)])
            }
        }
        for g in 0..<myGroups {
            for (t, policy) in [(0, "followed"), (1, "followed"), (2, "muted")] {
                try db.execute(
                    sql: "INSERT INTO topic_states (topic_id, user_id, policy) VALUES (?, ?, ?)",
                    arguments: [g * topicsPerGroup + t + 1, user(0), policy])
            }
        }
    }
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE); ANALYZE") }
}
try pool.close()
print("seeded in \(seedStart.duration(to: .now))\(keepsDatabase ? " at \(databasePath)" : "")")

let messagingPort = try await startService { onListening in
    var settings = settings
    settings.onListening = onListening
    return try await buildMessagingApplication(
        MessagingConfiguration(settings: settings, socialGraph: EveryoneFriends()))
}
let gatewayPort = try await startService { onListening in
    var upstreams: [ServiceName: GatewayConfiguration.Upstream] = [:]
    for service in ServiceName.allCases { upstreams[service] = .init(host: "127.0.0.1", port: 1) }
    upstreams[.identity] = GatewayConfiguration.Upstream(url: identity.url)
    upstreams[.messaging] = .init(host: "127.0.0.1", port: messagingPort)
    return GatewayServer(
        configuration: GatewayConfiguration(
            port: 0, upstreams: upstreams, requestsPerMinute: 100_000_000, logLevel: .error, onListening: onListening))
}
let base = "http://127.0.0.1:\(gatewayPort)"
let me = try await identity.token(for: user(0))
let senders = try await (0..<64).asyncMap { index in
    let g = index % myGroups
    return (group: group(g), topic: g * topicsPerGroup + 1, token: try await identity.token(for: user(members[g][1])))
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

print(
    "\(requestsPerScenario) requests per scenario, \(concurrency) concurrent keep-alive clients, through the gateway:")
try await measure("latest 50 in a topic", count: requestsPerScenario, concurrency: concurrency) { n in
    let g = n % myGroups
    return get(
        base + MessagingPaths.conversations
            + "/\(group(g))/messages?limit=50&topicId=\(g * topicsPerGroup + n % topicsPerGroup + 1)",
        token: me)
}
try await measure("unread counts, \(myGroups) groups", count: requestsPerScenario, concurrency: concurrency) { _ in
    get(base + MessagingPaths.unread, token: me)
}
try await measure("conversation list, 50", count: requestsPerScenario, concurrency: concurrency) { _ in
    get(base + MessagingPaths.conversations + "?limit=50", token: me)
}
let frequencies = try await {
    let pool = try DatabasePool(path: databasePath)
    defer { try? pool.close() }
    return try await pool.read { db in
        try [20, 300, 3_000].map { rank in
            (
                rank,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM message_search WHERE message_search MATCH ?",
                    arguments: ["\"\(vocabulary[rank])\""]) ?? 0
            )
        }
    }
}()
for (rank, matches) in frequencies {
    try await measure("search, word in \(matches) msgs", count: requestsPerScenario / 5, concurrency: concurrency) {
        _ in
        get(base + MessagingPaths.search + "?limit=20&query=" + vocabulary[rank], token: me)
    }
}
let body = ByteBuffer(string: #"{"text":"benchmark message with a few ordinary words in it"}"#)
try await measure("send (64 clients)", count: requestsPerScenario * 2, concurrency: 64) { n in
    let sender = senders[n % senders.count]
    var request = HTTPClientRequest(
        url: base + MessagingPaths.conversations + "/\(sender.group)/messages")
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(sender.token)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(body)
    return request
}
exitRemoving(folder, keeping: databasePath)
