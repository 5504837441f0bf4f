import Foundation
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The social graph's storage, whichever database keeps it (``SQLiteSocialStore``, ``PostgresSocialStore``): the
/// only place that knows SQL. Each method is one transaction; rules that need a read (may this request be sent?)
/// are checked inside it and throw ``SocialError``.
protocol SocialStore: ServiceStore {
    // MARK: Friends

    /// Sends a friend request, or accepts theirs when the other had already asked.
    func sendFriendRequest(
        from sender: String, to recipient: String, now: Date, notices: ChangeNotices<FriendRequestOutcome>?
    ) async throws -> FriendRequestOutcome

    /// Accepts or declines (the recipient) or cancels (the sender) a pending request; anyone else gets 404.
    /// `notices` reports the request as answered.
    func answer(
        _ requestID: String, by userID: String, _ answer: FriendRequestAnswer, now: Date,
        notices: ChangeNotices<FriendRequestRecord>?
    ) async throws -> FriendRequestRecord

    /// Pending requests to (`incoming`) or from `userID`, newest first, after `cursor` (the id of the previous
    /// page's last request), at most `limit`.
    func pendingRequests(of userID: String, incoming: Bool, after cursor: String?, limit: Int) async throws
        -> [FriendRequestRecord]

    /// Ends a friendship; 404 when there is none.
    func unfriend(_ userID: String, _ friendID: String) async throws

    /// My friends with their profile basics, by username (ASCII case-insensitively, those without one first, then
    /// by id), optionally those whose username or display name contains `keyword` (ASCII case-insensitively), other
    /// than those `excluded`, after `cursor` (the last username and id of the previous page).
    func friends(
        of userID: String, matching keyword: String?, excluding excluded: [String], after cursor: [String]?, limit: Int
    ) async throws -> [ProfileRecord]

    /// Friends `viewer` and `other` have in common, by id. A block either way shares nothing, and answers as for
    /// someone with no friends in common: a 404 (and a 200 for every other id, known or not) would tell the
    /// blocked user of the block.
    func mutualFriends(of viewer: String, and other: String) async throws -> [String]

    /// Friends of my friends I am not connected to, most mutual friends first.
    func suggestions(for userID: String, limit: Int) async throws -> [(userID: String, mutualFriends: Int)]

    // MARK: Follows and blocks

    /// Asks `followee` for approval to follow; returns how `follower` now stands to them, which `notices` reports.
    func follow(_ follower: String, _ followee: String, now: Date, notices: ChangeNotices<Relationship>?)
        async throws -> Relationship

    /// Approves or rejects a pending follow request addressed to `followee`; `notices` reports `approve`.
    func answerFollow(of follower: String, to followee: String, approve: Bool, notices: ChangeNotices<Bool>?)
        async throws

    /// Ends a follow (approved or still pending): `follower` unfollowing, or `followee` removing a follower.
    func endFollow(of follower: String, to followee: String, approvedOnly: Bool) async throws

    /// User ids on one side of `userID`'s follows: its followers, its followees, or who asks to follow it;
    /// by id after `cursor` (the last id of the previous page), at most `limit`.
    func follows(of userID: String, _ side: FollowSide, after cursor: String?, limit: Int) async throws -> [String]

    /// Blocks `blocked`: ends friendship, pending requests and follows both ways.
    func block(_ blocker: String, _ blocked: String, now: Date) async throws

    /// Lifts a block; 404 when there is none.
    func unblock(_ blocker: String, _ blocked: String) async throws

    /// Those `userID` blocked, newest first, after `cursor` (the key of the previous page's last block), at most
    /// `limit`; each with its key for the next cursor (the store's own: a key from the other engine is refused or
    /// finds nothing, never a 5xx).
    func blockedIDs(by userID: String, after cursor: [String]?, limit: Int) async throws -> [(
        id: String, key: [String]
    )]

    // MARK: Relationships

    /// How `viewer` stands to `other`.
    func relationship(_ viewer: String, _ other: String) async throws -> Relationship

    /// Everything about how `viewer` stands to each of a page of `others`, in one read.
    func fullRelationships(of viewer: String, among others: [String]) async throws -> [String: Relationship]

    /// Friend, following and blocked facts of `viewer` restricted to `others`, for colouring many map pins in one
    /// call.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: Relationship]

    func friendIDs(of userID: String) async throws -> [String]

    /// Those the user blocked and those who blocked the user.
    func blockedEitherWay(of userID: String) async throws -> [String]

    func friendAndBlockedIDs(of userID: String) async throws -> (friends: [String], blocked: [String])

    /// Those `userID` follows (approved), by id.
    func followingIDs(of userID: String) async throws -> [String]

    // MARK: Profiles

    /// Stores profile basics fetched from the identity service.
    func save(_ profiles: [ProfileRecord]) async throws

    func profiles(_ ids: [String]) async throws -> [ProfileRecord]

    // MARK: The change feed

    /// Makes `bell` ring after every transaction that changed a friendship or a block commits, in this process or,
    /// on PostgreSQL, in any replica; returns what must run for it (PostgreSQL's listener), if anything.
    func ringOnRelationshipChanges(_ bell: ChangeBell) -> (any Service)?

    /// The users whose friends or blocks changed after `sequence`, each once, at most `limit` changes; with
    /// `sequence` nil, none (a reader starting afresh keeps nothing yet), just the sequence to ask after. A reader
    /// following the feed never misses a change: changes are numbered in the order they commit.
    func relationshipChanges(after sequence: Int64?, limit: Int) async throws -> RelationshipChangePage
}

extension SocialStore {
    func friends(of userID: String, matching keyword: String?, after cursor: [String]?, limit: Int) async throws
        -> [ProfileRecord]
    {
        try await friends(of: userID, matching: keyword, excluding: [], after: cursor, limit: limit)
    }
}

extension SocialStore {
    /// A friend request with no notices to record.
    func sendFriendRequest(from sender: String, to recipient: String, now: Date) async throws -> FriendRequestOutcome {
        try await sendFriendRequest(from: sender, to: recipient, now: now, notices: nil)
    }

    /// A follow request with no notices to record.
    func follow(_ follower: String, _ followee: String, now: Date) async throws -> Relationship {
        try await follow(follower, followee, now: now, notices: nil)
    }
}

/// What sending a friend request did.
enum FriendRequestOutcome: Sendable {
    case sent(FriendRequestRecord)
    /// The other had already asked: both are friends now (their request is accepted).
    case becameFriends(FriendRequestRecord)
}

/// One side of a user's follows.
enum FollowSide: Sendable {
    case followers, following, requests

    /// The column listed, the column holding the user whose side it is, and the follows' status.
    var columns: (listed: String, mine: String, status: String) {
        switch self {
        case .followers: ("follower_id", "followee_id", "approved")
        case .following: ("followee_id", "follower_id", "approved")
        case .requests: ("follower_id", "followee_id", "pending")
        }
    }
}

/// A friendship is stored once, under its two ids in order.
func friendshipPair(_ a: String, _ b: String) -> (low: String, high: String) {
    a < b ? (a, b) : (b, a)
}
