import Foundation
import GeoService
import PlatformKit
import Synchronization
import TestSupport
import Testing

/// Two replicas of the geo service on one PostgreSQL database, each called directly: what one writes the other
/// maps, clusters and discovers at once; each keeps its own copy of the social graph from social's feed; and the
/// pack jobs both run warn of a pack once.
@Suite struct GeoReplicaTests {
    func replicas(_ world: GeoWorld) throws -> [APIClient] {
        let urls = try #require(world.stack.replicaURLs[.geo])
        #expect(urls.count == 2)
        return urls.map { APIClient(baseURL: $0, contract: .platform) }
    }

    func map(_ replica: APIClient, _ viewer: TestUser, zoom: Int) async throws -> [String: WireMap.Properties] {
        let response = try await replica.get(GeoPaths.map + "?bbox=2,48,3,49&zoom=\(zoom)", token: viewer.accessToken)
        #expect(response.status == 200, "\(response.text)")
        return Dictionary(
            try response.decode(WireMap.self).features.map { ($0.id, $0.properties) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func twoGeoReplicasOnOneDatabaseServeAsOne() async throws {
        let notices = RecordedNotices()
        let jobs = Mutex<[GeoJobs]>([])
        try await GeoWorld.run(
            keptGraph: true, postgres: TestStack.postgresByDefault.union([.geo]), replicas: [.geo: 2],
            configure: {
                $0.noticeSink = notices
                $0.jobsBuilt = { built in jobs.withLock { $0.append(built) } }
            }
        ) { world in
            let geo = try replicas(world)
            let (ann, bob, cat) = (world.ann, world.bob, world.cat)

            // given: ann pins Paris through the first replica, bob pins it through the second
            let pinned = try await geo[0].post(
                GeoPaths.pins, token: ann.accessToken,
                json: GeoWorld.NewPin(latitude: 48.853, longitude: 2.349, placeName: "Paris"))
            #expect(pinned.status == 201, "\(pinned.text)")
            let annsPin = try pinned.decode(WirePin.self).id
            let bobsPin = try await geo[1].post(
                GeoPaths.pins, token: bob.accessToken,
                json: GeoWorld.NewPin(latitude: 48.857, longitude: 2.352, placeName: "Paris"))
            #expect(bobsPin.status == 201, "\(bobsPin.text)")

            // then: each replica maps both pins, ann's as her friend's to bob once its copy of the graph is live,
            // and counts both in one cluster when zoomed out
            for replica in geo {
                #expect(try await eventually { try await map(replica, bob, zoom: 16)[annsPin]?.category == "friend" })
                #expect(try await map(replica, cat, zoom: 16)[annsPin]?.category == "other")
                let clusters = try await map(replica, cat, zoom: 3).values.filter(\.cluster)
                #expect(clusters.map(\.pointCount) == [2], "\(replica.baseURL)")
            }

            // when: bob blocks ann (in social): both replicas' copies hear of it
            try await world.block(bob, ann)
            for replica in geo {
                #expect(try await eventually { try await map(replica, bob, zoom: 16)[annsPin] == nil })
            }

            // a pack made through the second replica is discovered and joined through the first
            let made = try await geo[1].send(
                .POST, GeoPaths.packs, token: cat.accessToken, json: GeoWorld.NewPack(), headers: GeoWorld.atCampus())
            #expect(made.status == 201, "\(made.text)")
            let pack = try made.decode(WirePack.self)
            let found = try await geo[0].get(
                GeoPaths.discover + "/packs?radius=10000", token: ann.accessToken, headers: GeoWorld.atCampus())
            #expect(try found.decode(WirePage<WirePack>.self).items.map(\.id) == [pack.id], "\(found.text)")
            let joined = try await geo[0].send(
                .PUT, GeoPaths.packs + "/\(pack.id)/membership", token: ann.accessToken, headers: GeoWorld.atCampus())
            #expect(joined.status == 200, "\(joined.text)")

            // when: both replicas' pack jobs run at once, an hour before the pack's end
            let maintenance = jobs.withLock { $0 }
            #expect(maintenance.count == 2)
            let end = try #require(pack.expiresAt)
            let reports = try await withThrowingTaskGroup(of: PackMaintenance.Report.self) { group in
                for job in maintenance {
                    group.addTask { try await job.maintainPacks(now: end.addingTimeInterval(-600)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // then: its members are told once
            #expect(reports.map(\.warnedPacks).reduce(0, +) == 1)
            let expiring = notices.all.filter { $0.kind == "geo.pack_expiring" }
            #expect(expiring.count == 1)
            #expect(Set(expiring.first?.recipients ?? []) == [cat.id, ann.id])
        }
    }
}
