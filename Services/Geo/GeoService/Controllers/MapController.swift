import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The map: pins in a bounding box as GeoJSON, coloured by whose they are, clustered at low zoom.
struct MapController {
    let database: any GeoStore
    let graph: any FriendAndBlockedIDsLookup
    /// A viewport shows at most this many single pins (a readable map, a small answer); beyond it the server
    /// clusters even when zoomed in.
    static let maximumPoints = 500
    /// My pins and my friends' pins read for one viewport (overlay counts and the mine/friends filters).
    static let maximumPersonalPoints = 100_000

    enum Filter: String {
        case mine, friends, everyone
    }

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.map), use: map)
    }

    /// `bbox=west,south,east,north` (west > east crosses the antimeridian), optional `zoom` (0-22; from the
    /// box's width when absent) and `filter` (mine, friends, everyone).
    @Sendable func map(_ request: Request, context: AuthenticatedContext) async throws -> FeatureCollection {
        let query = request.uri.queryParameters
        let box = try BoundingBox.parse(query["bbox"].map(String.init))
        let zoom = try Self.zoom(query["zoom"].map(String.init), box: box)
        guard let filter = Filter(rawValue: query["filter"].map(String.init) ?? "everyone") else {
            throw Problem.invalidField("filter", "must be mine, friends or everyone.")
        }
        let viewer = context.user.userID
        let circle = filter == .mine ? Circle(viewer: viewer) : try await circle(of: viewer)
        // Every query in one snapshot: counts and pins agree, and one read transaction costs one read lock.
        return try await database.readMap { map in
            let scheme = try await map.colorScheme(of: viewer)
            switch filter {
            case .mine:
                let points = try await map.points(of: [viewer], in: box, limit: Self.maximumPersonalPoints)
                return Self.personal(points, zoom: zoom, box: box, viewer: viewer, scheme: scheme)
            case .friends:
                let points = try await map.points(
                    of: [viewer] + circle.friends, in: box, limit: Self.maximumPersonalPoints)
                return Self.personal(points, zoom: zoom, box: box, viewer: viewer, scheme: scheme)
            case .everyone:
                if zoom > MapGrid.maximumClusterZoom {
                    let points = try await map.points(in: box, limit: Self.maximumPoints + 1)
                    if points.count <= Self.maximumPoints {
                        return FeatureCollection(
                            features: try await Self.visibleFeatures(points, circle: circle, scheme: scheme, map: map),
                            clustered: false, zoom: zoom)
                    }
                }
                return try await Self.clustered(
                    box, grid: MapGrid.clustering(zoom: zoom, box: box), circle: circle, scheme: scheme, map: map)
            }
        }
    }

    /// The viewer, their friends, and the users they blocked or were blocked by: all the map needs of the graph.
    struct Circle: Sendable {
        var viewer: String
        var friends: Set<String> = []
        var blocked: Set<String> = []
    }

    private func circle(of viewer: String) async throws -> Circle {
        let (friends, blocked) = try await graph.friendAndBlockedIDs(of: viewer)
        return Circle(viewer: viewer, friends: friends, blocked: blocked)
    }

    /// Everyone's pins by grid cell: totals from `pin_cells` less the pins of users blocked either way, my and
    /// my friends' share counted from our own pins, and cells of one pin shown as that pin. Clusters are
    /// anonymous counts; a blocked user's pin is never shown, named or counted.
    private static func clustered(
        _ box: BoundingBox, grid: MapGrid, circle: Circle, scheme: ColorScheme, map: any GeoMapReader
    ) async throws -> FeatureCollection {
        let viewer = circle.viewer
        let personal = try await map.points(
            of: [viewer] + circle.friends, in: box, limit: Self.maximumPersonalPoints)
        var own: [MapGrid.Cell: Int] = [:]
        var friendly: [MapGrid.Cell: Int] = [:]
        for point in personal {
            let cell = grid.cell(latitude: point.latitude, longitude: point.longitude)
            if point.userId == viewer { own[cell, default: 0] += 1 } else { friendly[cell, default: 0] += 1 }
        }
        var hidden: [MapGrid.Cell: (count: Int, latitude: Double, longitude: Double)] = [:]
        if !circle.blocked.isEmpty {
            for point in try await map.points(of: Array(circle.blocked), in: box, limit: Self.maximumPersonalPoints) {
                let cell = grid.cell(latitude: point.latitude, longitude: point.longitude)
                let sum = hidden[cell] ?? (0, 0, 0)
                hidden[cell] = (sum.count + 1, sum.latitude + point.latitude, sum.longitude + point.longitude)
            }
        }
        var features: [Feature] = []
        var lone: [MapGrid.Cell] = []
        for cell in try await map.cells(grid, in: box) {
            let less = hidden[cell.cell] ?? (0, 0, 0)
            let count = cell.count - less.count
            guard count > 1 else {
                // The one pin left (if any) is fetched and shown as itself; a blocked owner's is filtered out.
                if count == 1 { lone.append(cell.cell) }
                continue
            }
            features.append(
                Feature.cluster(
                    cell.cell, zoom: grid.zoom, count: count,
                    latitude: (cell.sumLatitude - less.latitude) / Double(count),
                    longitude: (cell.sumLongitude - less.longitude) / Double(count), own: own[cell.cell] ?? 0,
                    friend: friendly[cell.cell] ?? 0, scheme: scheme))
        }
        let points = try await map.lonePoints(lone, grid: grid, hidden: hidden.mapValues(\.count))
        features += try await visibleFeatures(points, circle: circle, scheme: scheme, map: map)
        return FeatureCollection(features: features, clustered: true, zoom: grid.zoom)
    }

    /// Single pins as features, without those of users blocked either way; strangers who asked not to be named
    /// are shown without their name.
    private static func visibleFeatures(
        _ points: [MapPoint], circle: Circle, scheme: ColorScheme, map: any GeoMapReader
    )
        async throws -> [Feature]
    {
        let strangers = Set(points.map(\.userId)).subtracting([circle.viewer]).subtracting(circle.friends)
            .subtracting(circle.blocked)
        let unnamed = strangers.isEmpty ? [] : try await map.unlistedToStrangers(among: strangers.sorted())
        return points.compactMap { point in
            if point.userId == circle.viewer { return Feature.pin(point, category: .own, scheme: scheme) }
            if circle.friends.contains(point.userId) { return Feature.pin(point, category: .friend, scheme: scheme) }
            guard !circle.blocked.contains(point.userId) else { return nil }
            return Feature.pin(point, category: .other, scheme: scheme, named: !unnamed.contains(point.userId))
        }
    }

    /// My (and my friends') pins, clustered in memory on the same grid when zoomed out.
    static func personal(
        _ points: [MapPoint], zoom: Int, box: BoundingBox, viewer: String, scheme: ColorScheme
    ) -> FeatureCollection {
        func category(_ point: MapPoint) -> PinCategory { point.userId == viewer ? .own : .friend }
        guard zoom <= MapGrid.maximumClusterZoom || points.count > maximumPoints else {
            return FeatureCollection(
                features: points.map { Feature.pin($0, category: category($0), scheme: scheme) }, clustered: false,
                zoom: zoom)
        }
        let grid = MapGrid.clustering(zoom: zoom, box: box)
        var groups: [MapGrid.Cell: [MapPoint]] = [:]
        for point in points {
            groups[grid.cell(latitude: point.latitude, longitude: point.longitude), default: []].append(point)
        }
        let features = groups.sorted { ($0.key.x, $0.key.y) < ($1.key.x, $1.key.y) }.map { cell, members in
            guard members.count > 1 else {
                return Feature.pin(members[0], category: category(members[0]), scheme: scheme)
            }
            let own = members.count { $0.userId == viewer }
            return Feature.cluster(
                cell, zoom: grid.zoom, count: members.count,
                latitude: members.reduce(0) { $0 + $1.latitude } / Double(members.count),
                longitude: members.reduce(0) { $0 + $1.longitude } / Double(members.count), own: own,
                friend: members.count - own, scheme: scheme)
        }
        return FeatureCollection(features: features, clustered: true, zoom: grid.zoom)
    }

    /// The zoom asked for, or the one at which the box fills the view.
    static func zoom(_ value: String?, box: BoundingBox) throws -> Int {
        if let value {
            guard let zoom = Int(value), (0...22).contains(zoom) else {
                throw Problem.invalidField("zoom", "must be a whole number from 0 to 22.")
            }
            return zoom
        }
        return MapGrid.fittingZoom(box)
    }
}
