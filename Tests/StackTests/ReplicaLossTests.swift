import Foundation
import PlatformKit
import Synchronization
import TestSupport
import Testing

/// Every service on PostgreSQL with two replicas behind the gateway (issue 43): one replica of each stops while
/// readers keep asking, and no read fails. The gateway learns a replica is gone from the request that finds it
/// closed (passive health) and sends that read again to the other replica, so there is no window in which requests
/// fail while a health check catches up.
///
/// The second replica of each stops: services call each other at their first replica's address here (in Kubernetes
/// a Service's address spreads those calls), and what is under test is the gateway's spreading and failing over.
@Suite struct ReplicaLossTests {
    static let everyService = Set(ServiceName.allCases)
    static let twoOfEach = Dictionary(uniqueKeysWithValues: ServiceName.allCases.map { ($0, 2) })

    /// One answer seen by a reader: when it was asked (seconds from the start), what came back, how long it took.
    struct Answer: Sendable {
        var askedAt: Double
        var path: String
        var status: Int
        var seconds: Double
    }

    /// What the readers saw, and when the stopping began.
    final class Record: Sendable {
        let answers = Mutex<[Answer]>([])
        let stoppedAt = Mutex<Double?>(nil)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func oneReplicaOfEachStopsUnderLoadAndNoReadFails() async throws {
        try await ProductStack.run(notifications: true, postgres: Self.everyService, replicas: Self.twoOfEach) {
            stack in
            let ann = try await stack.register("ann")
            let created = try await stack.gateway.post(
                HouseholdPaths.households, token: ann.accessToken, json: ["name": "Flat 4", "timeZone": "UTC"])
            #expect(created.status == 201, "\(created.text)")
            let household = try created.decode(WireHousehold.self).id
            let reads = [
                IdentityPaths.me, SocialPaths.friends, MessagingPaths.conversations,
                GeoPaths.map + "?bbox=2.2,48.8,2.5,48.9", HabitsPaths.today,
                "\(HouseholdPaths.households)/\(household)/chores", NotificationsPaths.notifications,
            ]
            let start = ContinuousClock.now
            let stopAt = Duration.milliseconds(1_500)
            // Reading goes on this long after the stopping began, however late a loaded machine begins it.
            let readingAfterStop = 3.0
            let record = Record()

            try await withThrowingTaskGroup(of: Void.self) { group in
                for reader in 0..<6 {
                    group.addTask {
                        var turn = reader
                        while true {
                            let now = Self.seconds(ContinuousClock.now - start)
                            if let stopped = record.stoppedAt.withLock({ $0 }), now >= stopped + readingAfterStop {
                                break
                            }
                            let path = reads[turn % reads.count]
                            turn += 1
                            let asked = ContinuousClock.now
                            let status: Int
                            do {
                                status = try await stack.gateway.get(path, token: ann.accessToken).status
                            } catch {
                                status = 0
                            }
                            let answer = Answer(
                                askedAt: Self.seconds(asked - start), path: path, status: status,
                                seconds: Self.seconds(ContinuousClock.now - asked))
                            record.answers.withLock { $0.append(answer) }
                        }
                    }
                }
                group.addTask {
                    try await Task.sleep(until: start + stopAt)
                    record.stoppedAt.withLock { $0 = Self.seconds(ContinuousClock.now - start) }
                    await withTaskGroup(of: Void.self) { stops in
                        for service in ServiceName.allCases {
                            stops.addTask { await stack.stop("\(service.rawValue)-2") }
                        }
                    }
                }
                try await group.waitForAll()
            }

            let seen = record.answers.withLock { $0 }
            let stopped = try #require(record.stoppedAt.withLock { $0 })
            let failed = seen.filter { $0.status != 200 }
            let after = seen.filter { $0.askedAt >= stopped }
            let slowest = after.map(\.seconds).max() ?? 0
            print(
                """
                replica loss: \(seen.count) reads, \(after.count) after the second replicas began stopping at \
                \(String(format: "%.2f", stopped)) s; \(failed.count) failed; slowest read after: \
                \(String(format: "%.0f", slowest * 1000)) ms
                """)
            #expect(after.count >= reads.count, "the readers kept reading after the stop")
            #expect(
                failed.isEmpty,
                "\(failed.map { "\(String(format: "%.2f", $0.askedAt)) s \($0.path): \($0.status)" })")
            // Every service still answers through the gateway, from the replica left.
            for path in reads {
                #expect(try await stack.gateway.get(path, token: ann.accessToken).status == 200, "\(path)")
            }
        }
    }
}
