import Foundation
import PlatformKit
import ServiceKit

/// The geo service's storage, whichever database keeps it: SQLite through GRDB (``SQLiteGeoStore``, the default) or
/// PostgreSQL through PostgresNIO (``PostgresGeoStore``, when `DATABASE_URL` names one). Controllers and jobs see only
/// this. Each operation is one transaction; every pack read takes `now`: a pack past its expiry is gone at once,
/// before the sweep flushes its rows.
/// A comment just stored and the post it is on.
typealias CommentMade = (comment: CommentRecord, on: PostListing)

protocol GeoStore: ServiceStore {
    // MARK: The map

    /// Runs the map's reads on one snapshot, so cell counts and the pins shown agree (PostgreSQL: one REPEATABLE
    /// READ transaction; SQLite: one read each, its single writer changes little between them).
    func readMap<T: Sendable>(_ body: @Sendable (any GeoMapReader) async throws -> T) async throws -> T

    /// Pins inside a box, at most `limit`.
    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint]

    /// The non-empty cells of the grid inside a box.
    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount]

    // MARK: Pins

    /// Saves a new pin (`created`), or answers the pin its user already has of the same place.
    func createPin(_ pin: PinRecord) async throws -> (pin: PinRecord, created: Bool)

    /// A pin; a missing one is not found.
    func pin(_ id: Int64) async throws -> PinRecord

    /// Changes my pin; someone else's pin is a 404 like a missing one.
    func changePin(_ id: Int64, of userID: String, _ change: @Sendable (inout PinRecord) throws -> Void) async throws
        -> PinRecord

    func deletePin(_ id: Int64, of userID: String) async throws

    /// A user's pins, newest first, after the cursor's id.
    func pins(of userID: String, before cursor: Int64?, limit: Int) async throws -> [PinRecord]

    /// Every pin of a user (at most ``PinLimits/pinsPerUser``) as the visited summary needs it.
    func visitedPins(of userID: String) async throws -> [VisitedSummary.Pin]

    /// The countries of each user's pins (users without pins are missing).
    func countryCodes(of users: [String]) async throws -> [String: [String]]

    // MARK: Trips

    /// Saves a new trip of at most ``Trips/tripsPerUser`` per user; its cover must be a photo of one of the owner's
    /// pins (400 `coverPhotoId`).
    func createTrip(_ trip: TripRecord) async throws -> TripRecord

    /// A trip; a missing one is not found (the caller checks who may read it).
    func trip(_ id: Int64) async throws -> TripRecord

    /// Changes my trip (someone else's is a 404 like a missing one); its days and cover are checked after `change`.
    func changeTrip(_ id: Int64, of userID: String, _ change: @Sendable (inout TripRecord) throws -> Void)
        async throws -> TripRecord

    func deleteTrip(_ id: Int64, of userID: String) async throws

    /// A user's trips, the latest start first.
    func trips(of userID: String) async throws -> [TripRecord]

    // MARK: Reactions

    /// Sets (or with `nil` removes) a person's reaction to a pin; answers whether it is their first reaction to
    /// it ever (removing and reacting again is not). A missing pin is not found. The caller checks they may.
    /// `notices` reports that answer.
    func setReaction(on pinID: Int64, by user: String, kind: String?, now: Date, notices: ChangeNotices<Bool>?)
        async throws -> Bool

    /// A pin's reactions, oldest first, at most ``PinReactions/listed``.
    func reactions(on pinID: Int64) async throws -> [PinReaction]

    /// How many photos each of these pins has.
    func photoCounts(_ pinIDs: [Int64]) async throws -> [Int64: Int]

    // MARK: Photos

    /// Adds a photo to my pin.
    func addPhoto(_ info: PinPhotoRecord, bytes: Data, by userID: String) async throws

    /// A pin's photos, oldest first.
    func photos(of pinID: Int64) async throws -> [PinPhotoRecord]

    /// A photo's bytes, type and stored tag; a missing one is not found.
    func photo(_ id: String, of pinID: Int64) async throws -> StoredBytes

    /// Deletes a photo of my pin.
    func deletePhoto(_ id: String, of pinID: Int64, by userID: String) async throws

    // MARK: The gazetteer

    /// Places whose names match the folded query word by word (prefixes allowed), best match then biggest
    /// first; when no name equals or starts with the query, names within a few typos fill up the list.
    func searchPlaces(folded: String, limit: Int) async throws -> [PlaceHit]

    func place(_ id: Int64) async throws -> PlaceRecord?

    /// The gazetteer place nearest to a point within `radius` metres (reverse lookup): gives a pin its country and
    /// region, and a pin made from coordinates alone its name (``ReverseLookup``).
    func nearestPlace(latitude: Double, longitude: Double, radius: Double) async throws -> PlaceRecord?

    // MARK: Colours and privacy

    func colorScheme(of userID: String) async throws -> ColorScheme

    func setCategoryColors(of userID: String, own: String?, friend: String?, other: String?) async throws

    /// Sets (or with `nil` clears) my colour for one pin.
    func setPinColor(of userID: String, pin: Int64, color: String?) async throws

    func isListedToStrangers(_ userID: String) async throws -> Bool

    func setListedToStrangers(_ userID: String, _ listed: Bool) async throws

    /// Those of `userIDs` who asked not to be named to strangers.
    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String>

    // MARK: Packs

    /// Creates a pack with its alpha as the first member; a user (not an admin) has at most
    /// ``PackLimits/livePacksPerAlpha`` live packs.
    func createPack(_ pack: PackRecord, now: Date) async throws -> PackRecord

    /// A live pack; one that never existed or has expired is not found.
    func livePack(_ id: Int64, now: Date) async throws -> PackRecord

    /// A live pack whose content may be seen from `position`.
    func readablePack(_ id: Int64, at position: ClientPosition?, now: Date) async throws -> PackRecord

    /// The viewer's pseudonym in each of these packs they are an active member of.
    func memberships(of user: String, in packIDs: [Int64]) async throws -> [Int64: String]

    /// Joins a live pack (again), a locked one only from inside its radius; the pseudonym is the one the user had
    /// there before, if any.
    func join(_ packID: Int64, user: String, at position: ClientPosition?, now: Date) async throws -> PackRecord

    /// Leaves a pack; the pseudonym stays reserved so nobody else writes under it.
    func leave(_ packID: Int64, user: String, now: Date) async throws

    /// Ends a live pack now, for its alpha or an admin; the sweep flushes its content.
    func closePack(_ packID: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws

    /// Edits a live pack's face (name, tags, colour, icon) and, while it has no posts, its radius and lock; for
    /// its acting alpha or an admin. `change` applies the validated edit.
    func editPack(_ packID: Int64, by viewer: String, isAdmin: Bool, now: Date, _ change: PackEdit) async throws
        -> PackRecord

    /// The live packs a user is an active member of, newest first.
    func packs(of user: String, now: Date) async throws -> [PackRecord]

    /// Live packs whose centre lies in the box (discover widens it by the largest pack radius first).
    func packs(in box: BoundingBox, now: Date) async throws -> [PackRecord]

    // MARK: Posts and comments

    /// The post as the viewer may read it from `position`: visible to them, in a live pack whose content they
    /// may see from there.
    func readablePost(_ id: Int64, viewer: String, at position: ClientPosition?, now: Date) async throws -> PostListing

    /// Adds a post under the writer's pseudonym in a live pack whose content they may see from `position` and
    /// that they are an active member of; `admit` (the rate limit) runs once the pack is known to be open to them.
    func createPost(
        pack packID: Int64, author: String, title: String, body: String, tags: [String], at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date
    ) async throws -> PostListing

    /// Deletes a post with its comments and votes, for its writer, the pack's alpha or an admin; its pack's
    /// counters drop, the writer's earned votes stay.
    func deletePost(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws

    /// Sets (1, -1) or withdraws (0) the voter's vote, from where the post may be read. A post whose score falls
    /// to ``PackLimits/hidingScore`` is hidden for good (``VoteTally``). Writers cannot vote on their own posts.
    func vote(_ postID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date) async throws
        -> PostListing

    /// Adds a comment under the writer's pseudonym to a post they may read from `position`, in a pack they are an
    /// active member of; `admit` (the rate limit) runs once the post is known to be open to them.
    /// `notices` reports the comment.
    func createComment(
        on postID: Int64, author: String, body: String, at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date, notices: ChangeNotices<CommentMade>?
    ) async throws -> CommentMade

    /// The comments of a post the viewer may read from `position`, oldest first, after the cursor's id, with the
    /// viewer's votes on them.
    func comments(
        on postID: Int64, viewer: String, at position: ClientPosition?, after cursor: Int64?, limit: Int, now: Date
    ) async throws -> (post: PostListing, comments: [CommentRecord], myVotes: [Int64: Int])

    /// Sets (1, -1) or withdraws (0) the voter's vote on a comment on a post they may read from `position`, in a
    /// pack they are an active member of; by the rule of posts (``VoteTally``): one vote per member, a comment
    /// whose score falls to ``PackLimits/hidingScore`` is hidden for good, writers do not vote on their own. The
    /// writer's karma takes the change in the same transaction.
    func voteComment(_ commentID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date)
        async throws -> CommentListing

    /// Deletes a comment, for its writer, the post's pack's alpha or an admin.
    func deleteComment(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws

    // MARK: Feeds

    /// One page of the visible posts of these packs in `order`, merged from an index walk per pack that reads
    /// only (id, hot), so the cost does not grow with the packs' sizes; then the page's rows. With `tags`, only
    /// posts carrying one, or in a pack carrying one. With `newerThan`, only posts made after that one (ids grow).
    func posts(
        in packs: [PackRecord], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        tags: [String], newerThan newest: Int64
    ) async throws -> [PostListing]

    /// The newest posts of each pack in turn, packs in the given order (discover's "by distance").
    func postsPackByPack(
        in packs: [PackRecord], after cursor: (pack: Int64, post: Int64)?, limit: Int, viewer: String,
        tags: [String]
    ) async throws -> [PostListing]

    func denTotals(of user: String, now: Date) async throws -> DenTotals

    /// My posts in live packs, newest first, hidden ones included.
    func posts(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws -> [PostListing]

    /// My comments in live packs, newest first, with the post each belongs to.
    func comments(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws
        -> [(CommentRecord, PostListing)]

    // MARK: Reports and mutes

    /// Files `reporter`'s report of a post or comment they may read from `position` (404 as for reading it; their
    /// own is refused). A second open report by them of the same item is answered with the first (`created`
    /// false). Once `threshold` distinct people have open reports, the item is hidden from everyone but its writer.
    func report(
        _ kind: PackReports.Kind, _ itemID: Int64, reporter: String, reason: PackReports.Reason, note: String?,
        threshold: Int, at position: ClientPosition?, now: Date
    ) async throws -> (report: ReportRecord, created: Bool)

    /// Items with open reports that still exist, a page (`limit`) at a time after `cursor`.
    func reportQueue(order: PackReports.QueueOrder, after cursor: ReportQueueCursor?, limit: Int) async throws
        -> [(entry: ReportQueueEntry, item: ReportedPackItem)]

    /// An admin's decision on an item's open reports (404 when it has none): `keep` shows the item again, `remove`
    /// deletes it; the reports record who decided and when. Answers the item as it was, with the decided reports,
    /// which `notices` reports.
    func decideReports(
        on kind: PackReports.Kind, _ itemID: Int64, _ decision: PackReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<ReportedPackItem>?
    ) async throws -> ReportedPackItem

    /// Mutes the writer of a post or comment the muter may read from `position`, in that pack: their posts and
    /// comments there, past and future, leave the muter's lists, also after they leave and rejoin. Answers the pack
    /// and the pseudonym muted (never the account).
    func muteWriter(
        of kind: PackReports.Kind, _ itemID: Int64, muter: String, at position: ClientPosition?, now: Date
    ) async throws -> (packID: Int64, pseudonym: String)

    // MARK: Expiry (run by every replica's pack maintenance: each step claims its rows)

    /// Marks the packs that expire within the next hour and were not announced yet, and returns them with their
    /// members (at most `limit` packs per call); a pack is claimed by one caller only.
    func claimExpiryWarnings(now: Date, limit: Int) async throws -> [ExpiryWarning]

    /// Deletes up to `batch` posts of expired packs (their comments and votes go with them), then the packs left
    /// empty. One short transaction, so requests interleave between steps.
    func sweepExpiredStep(now: Date, batch: Int) async throws -> SweepStep

    /// Deletes up to `batch` expired posts of official packs (``OfficialPostLifetime``; comments and votes go with
    /// them) and takes them off their packs' counters; the packs stay.
    func sweepExpiredOfficialPostsStep(now: Date, batch: Int) async throws -> Int
}

extension GeoStore {
    func nearestPlace(latitude: Double, longitude: Double) async throws -> PlaceRecord? {
        try await nearestPlace(latitude: latitude, longitude: longitude, radius: ReverseLookup.regionRadius)
    }

    func claimExpiryWarnings(now: Date) async throws -> [ExpiryWarning] {
        try await claimExpiryWarnings(now: now, limit: 200)
    }

    func posts(
        in packs: [PackRecord], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        tags: [String] = []
    ) async throws -> [PostListing] {
        try await posts(in: packs, order: order, after: cursor, limit: limit, viewer: viewer, tags: tags, newerThan: 0)
    }

    func posts(
        in packs: [PackRecord], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        newerThan newest: Int64
    ) async throws -> [PostListing] {
        try await posts(
            in: packs, order: order, after: cursor, limit: limit, viewer: viewer, tags: [], newerThan: newest)
    }

    func postsPackByPack(
        in packs: [PackRecord], after cursor: (pack: Int64, post: Int64)?, limit: Int, viewer: String
    ) async throws -> [PostListing] {
        try await postsPackByPack(in: packs, after: cursor, limit: limit, viewer: viewer, tags: [])
    }
}

/// The map's queries on one snapshot (``GeoStore/readMap(_:)``).
protocol GeoMapReader: Sendable {
    /// What the viewer chose: colours per category and per pin.
    func colorScheme(of userID: String) async throws -> ColorScheme

    /// Those of `userIDs` who asked not to be named to strangers.
    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String>

    /// The non-empty cells of the grid inside a box (both sides of the antimeridian).
    func cells(_ grid: MapGrid, in box: BoundingBox) async throws -> [CellCount]

    /// Pins inside a box, at most `limit` (the caller asks for one more than it shows, to see overflow).
    func points(in box: BoundingBox, limit: Int) async throws -> [MapPoint]

    /// The pins of some users (me, my friends) inside a box, by user then latitude; the users may be given in any
    /// order and more than once.
    func points(of users: [String], in box: BoundingBox, limit: Int) async throws -> [MapPoint]

    /// The pins inside each box, at most its `limit` for each: what ``points(in:limit:)`` answers for each box.
    func points(inEach boxes: [(box: BoundingBox, limit: Int)]) async throws -> [[MapPoint]]
}

extension GeoMapReader {
    func points(inEach boxes: [(box: BoundingBox, limit: Int)]) async throws -> [[MapPoint]] {
        var found: [[MapPoint]] = []
        for (box, limit) in boxes { found.append(try await points(in: box, limit: limit)) }
        return found
    }

    /// The pins of cells left with one pin to show (a cell of one pin is shown as that pin, not as a cluster);
    /// `hidden` says how many pins of blocked users a cell also holds, so the one pin is read past them.
    func lonePoints(_ cells: [MapGrid.Cell], grid: MapGrid, hidden: [MapGrid.Cell: Int] = [:]) async throws
        -> [MapPoint]
    {
        var found: [Int64: MapPoint] = [:]
        let inCells = try await points(inEach: cells.map { (grid.bounds($0), 16 + (hidden[$0] ?? 0)) })
        for (cell, points) in zip(cells, inCells) {
            // Bounds are closed, so a pin on a cell's edge is also found by its neighbour: keep it once,
            // in the cell the grid puts it in.
            for point in points where grid.cell(latitude: point.latitude, longitude: point.longitude) == cell {
                found[point.id] = point
            }
        }
        return Array(found.values)
    }
}

extension GeoStore {
    /// ``setReaction(on:by:kind:now:notices:)`` with no notices to record.
    func setReaction(on pinID: Int64, by user: String, kind: String?, now: Date) async throws -> Bool {
        try await setReaction(on: pinID, by: user, kind: kind, now: now, notices: nil)
    }

    /// ``createComment(on:author:body:at:admit:now:notices:)`` with no notices to record.
    func createComment(
        on postID: Int64, author: String, body: String, at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date
    ) async throws -> CommentMade {
        try await createComment(
            on: postID, author: author, body: body, at: position, admit: admit, now: now, notices: nil)
    }

    /// ``decideReports(on:_:_:by:now:notices:)`` with no notices to record.
    func decideReports(
        on kind: PackReports.Kind, _ itemID: Int64, _ decision: PackReports.Decision, by admin: String, now: Date
    ) async throws -> ReportedPackItem {
        try await decideReports(on: kind, itemID, decision, by: admin, now: now, notices: nil)
    }
}
