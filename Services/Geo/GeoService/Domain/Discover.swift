import Foundation

/// Discover near the client: which live packs count as near, the packs whose posts it lists, and how packs and
/// posts rank. Pure: the store returns the packs of ``box`` and the candidate posts; this decides the rest.
struct Discover: Sendable, Equatable {
    /// How discover sorts.
    enum Order: String, Sendable {
        case distance, popularity, created, best
    }

    var position: ClientPosition
    /// Metres around the position (1 to ``PackLimits/maximumDiscoverRadius``).
    var radius: Int
    var order: Order

    /// The area the store searches: wide enough for the largest pack, so that someone inside a big pack whose
    /// centre is beyond the radius still finds it.
    var box: BoundingBox {
        BoundingBox.around(
            latitude: position.latitude, longitude: position.longitude,
            radius: Double(max(radius, PackLimits.radius.upperBound)))
    }

    /// The packs near the position (centre within the radius, or the position inside them), nearest first, those
    /// carrying any of `tags` when there are some.
    func nearby(_ packs: [PackRecord], tags: [String]) -> [PackRecord] {
        let wanted = Set(tags)
        var near: [(pack: PackRecord, distance: Double)] = []
        for pack in packs {
            let distance = distance(to: pack)
            guard distance <= Double(radius) || distance <= Double(pack.radiusMeters),
                wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList)
            else { continue }
            near.append((pack, distance))
        }
        return near.sorted { ($0.distance, $0.pack.id ?? 0) < ($1.distance, $1.pack.id ?? 0) }.map(\.pack)
    }

    /// Nearby packs (as ``nearby(_:tags:)`` orders them) in this discover's order: nearest, most popular, newest,
    /// or by ``DiscoverRanking`` at `now`; ties go to the newer pack.
    func ranked(_ packs: [PackRecord], now: Date) -> [PackRecord] {
        switch order {
        case .distance:
            return packs
        case .popularity:
            return packs.map { ($0, $0.popularity) }.sorted { ($0.1, $0.0.id ?? 0) > ($1.1, $1.0.id ?? 0) }.map(\.0)
        case .created:
            return packs.sorted { $0.id ?? 0 > $1.id ?? 0 }
        case .best:
            let scored = packs.map { pack in
                (pack: pack, score: score(points: pack.popularity, age: now.timeIntervalSince(pack.createdAt), pack))
            }
            return scored.sorted { ($0.score, $0.pack.id ?? 0) > ($1.score, $1.pack.id ?? 0) }.map(\.pack)
        }
    }

    /// The packs whose posts discover lists: of the nearby ones, those whose content the position may see, the
    /// nearest ``PackLimits/discoverPostPacks``.
    func postPacks(_ nearby: [PackRecord]) -> [PackRecord] {
        Array(nearby.filter { $0.fence.admits(position) }.prefix(PackLimits.discoverPostPacks))
    }

    /// Candidate posts by ``DiscoverRanking`` at `now` (their points, age and their pack's distance), best first;
    /// ties go to the newer post.
    func best(_ listings: [PostListing], now: Date) -> [PostListing] {
        let scored = listings.map { listing in
            let post = listing.post
            let points = DiscoverRanking.points(
                comments: post.commentCount, upVotes: post.upVotes, downVotes: post.downVotes)
            let age = now.timeIntervalSince(post.createdAt)
            return (listing: listing, score: score(points: points, age: age, listing.pack))
        }
        return scored.sorted { ($0.score, $0.listing.post.id ?? 0) > ($1.score, $1.listing.post.id ?? 0) }
            .map(\.listing)
    }

    /// Whether `viewer` sees the post under one of their comments: their own post always; anyone else's unless
    /// it is hidden or its pack is locked to `position`.
    static func showsPost(_ listing: PostListing, to viewer: String, at position: ClientPosition?) -> Bool {
        listing.post.authorId == viewer || (!listing.post.hidden && listing.pack.fence.admits(position))
    }

    private func distance(to pack: PackRecord) -> Double {
        position.distance(toLatitude: pack.latitude, longitude: pack.longitude)
    }

    private func score(points: Double, age: TimeInterval, _ pack: PackRecord) -> Double {
        DiscoverRanking.score(points: points, age: age, distance: distance(to: pack), radius: Double(radius))
    }
}
