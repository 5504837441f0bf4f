import Foundation
import Testing

@testable import GeoService

/// Discover near the client: which packs are near, the packs whose posts it lists, and the rankings.
@Suite struct DiscoverTests {
    let here = ClientPosition(latitude: 48.0, longitude: 11.0)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A pack `north` metres north of here (about 111 m per 0.001 degree).
    func pack(
        _ id: Int64, north: Double, radius: Int = 100, tags: String = "[]", locked: Bool = false, members: Int = 1,
        age: TimeInterval = 0
    ) -> PackRecord {
        PackRecord(
            id: id, name: "p\(id)", latitude: 48.0 + north / 111_195, longitude: 11.0, radiusMeters: radius,
            tags: tags, color: "#000000", icon: "x", locked: locked, alphaId: "a", official: false,
            memberCount: members, postCount: 0, upVotes: 0, downVotes: 0, createdAt: now.addingTimeInterval(-age),
            expiresAt: nil, warned: false)
    }

    func listing(
        _ id: Int64, in pack: PackRecord, up: Int = 0, author: String = "w", hidden: Bool = false,
        age: TimeInterval = 0
    ) -> PostListing {
        PostListing(
            post: PostRecord(
                id: id, packId: pack.id ?? 0, authorId: author, pseudonym: "Otter", title: "t", body: "b", tags: "[]",
                upVotes: up, downVotes: 0, commentCount: 0, hot: 0, hidden: hidden,
                createdAt: now.addingTimeInterval(-age)),
            pack: pack, myVote: 0)
    }

    func discover(_ order: Discover.Order, radius: Int = 1_000) -> Discover {
        Discover(position: here, radius: radius, order: order)
    }

    @Test func nearbyPacksAreWithinTheRadiusOrAroundTheClientNearestFirst() {
        // given
        let packs = [
            pack(1, north: 800), pack(2, north: 200), pack(3, north: 5_000),
            pack(4, north: 3_000, radius: 4_000),  // far centre, but the client is inside it
        ]
        // when
        let near = discover(.distance).nearby(packs, tags: [])
        // then
        #expect(near.map(\.id) == [2, 1, 4])
    }

    @Test func theTagsFilterKeepsPacksCarryingAnyOfThem() {
        let packs = [pack(1, north: 100, tags: #"["food"]"#), pack(2, north: 50, tags: #"["bikes","music"]"#)]
        #expect(discover(.distance).nearby(packs, tags: ["music", "art"]).map(\.id) == [2])
        #expect(discover(.distance).nearby(packs, tags: []).map(\.id) == [2, 1])
    }

    @Test func aSmallRadiusStillSearchesAsFarAsTheLargestPack() {
        let widest = BoundingBox.around(
            latitude: here.latitude, longitude: here.longitude, radius: Double(PackLimits.radius.upperBound))
        #expect(discover(.distance, radius: 10).box == widest)
    }

    @Test func packsRankByPopularityOrNewestOrTheOneScore() {
        // given: nearest first, as nearby returns them
        let packs = [
            pack(1, north: 10, members: 3), pack(2, north: 20, members: 40, age: 86_400 * 4), pack(3, north: 30),
        ]
        // then
        #expect(discover(.distance).ranked(packs, now: now).map(\.id) == [1, 2, 3])
        #expect(discover(.popularity).ranked(packs, now: now).map(\.id) == [2, 1, 3])
        #expect(discover(.created).ranked(packs, now: now).map(\.id) == [3, 2, 1])
        // Four days of decay outweigh forty members against three.
        #expect(discover(.best).ranked(packs, now: now).map(\.id) == [1, 3, 2])
    }

    @Test func postsComeFromPacksWhoseContentTheClientMaySee() {
        let packs = [
            pack(1, north: 10, locked: true), pack(2, north: 500, locked: true), pack(3, north: 600),
        ]
        #expect(discover(.distance).postPacks(packs).map(\.id) == [1, 3])
        let many = (1...(PackLimits.discoverPostPacks + 5)).map { pack(Int64($0), north: Double($0)) }
        #expect(discover(.distance).postPacks(many).count == PackLimits.discoverPostPacks)
    }

    @Test func theBestPostsWeighVotesAgeAndDistance() {
        // given
        let near = pack(1, north: 10)
        let far = pack(2, north: 990)
        let listings = [
            listing(10, in: near, up: 0), listing(11, in: near, up: 9, age: 86_400 * 3), listing(12, in: far, up: 2),
            listing(13, in: near, up: 2),
        ]
        // when
        let best = discover(.best).best(listings, now: now)
        // then: the same votes rank nearer first; old votes fade
        #expect(best.map(\.post.id) == [13, 12, 10, 11])
    }

    @Test func myCommentShowsThePostUnlessItIsHiddenOrFencedOff() {
        let open = pack(1, north: 10)
        let lockedAway = pack(2, north: 5_000, locked: true)
        #expect(Discover.showsPost(listing(1, in: open), to: "me", at: nil))
        #expect(!Discover.showsPost(listing(1, in: open, hidden: true), to: "me", at: here))
        #expect(!Discover.showsPost(listing(1, in: lockedAway), to: "me", at: here))
        #expect(Discover.showsPost(listing(1, in: lockedAway, author: "me", hidden: true), to: "me", at: nil))
    }
}
