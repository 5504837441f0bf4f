import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// My share of the world, beside my friends' (friends see each other's pins, so each friend's map is shared with
/// me; a block ends the friendship and with it the comparison).
struct WorldShareController {
    let database: any GeoStore
    let graph: any FriendIDsLookup
    let directory: any UserDirectory

    /// At most this many friends are compared (the most travelled of them first).
    static let friendsCompared = 500

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.visited + "/world"), use: world)
    }

    @Sendable func world(_ request: Request, context: AuthenticatedContext) async throws -> WorldShareView {
        let viewer = context.user.userID
        let friends = try await graph.friendIDs(of: viewer).sorted().prefix(Self.friendsCompared)
        let codes = try await database.countryCodes(of: [viewer] + friends)
        let names = Dictionary(
            try await directory.users(ids: Array(friends)).map { ($0.id, $0.displayName) }
        ) { first, _ in first }
        let compared = friends.map { friend in
            WorldShareView.Friend(
                userId: friend, displayName: names[friend],
                share: .init(WorldShare.share(of: codes[friend] ?? [])))
        }
        return WorldShareView(
            countryTotal: WorldShare.countryTotal, continentTotal: WorldShare.Continent.allCases.count,
            mine: .init(WorldShare.share(of: codes[viewer] ?? [])),
            friends: compared.sorted {
                ($0.share.countryCount, $1.userId) > ($1.share.countryCount, $0.userId)
            })
    }
}

/// My share of the world and my friends', most travelled first.
struct WorldShareView: ResponseEncodable, Sendable {
    struct Share: Encodable, Sendable {
        var countryCount: Int
        var percent: Double
        var countries: [String]
        var continentCount: Int
        var continents: [WorldShare.Continent]

        init(_ share: WorldShare.Share) {
            countryCount = share.countries.count
            percent = share.percent
            countries = share.countries
            continentCount = share.continents.count
            continents = share.continents
        }
    }

    struct Friend: Encodable, Sendable {
        var userId: String
        var displayName: String?
        var share: Share
    }

    /// The denominator: the 249 codes of ISO 3166-1.
    var countryTotal: Int
    var continentTotal: Int
    var mine: Share
    var friends: [Friend]
}
