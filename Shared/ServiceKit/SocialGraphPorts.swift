// The social graph's ports: each service holds the few it needs (`any A & B`), `SocialGraphClient` answers all of
// them over internal HTTP, `KeptSocialGraph` those it keeps, and tests stand in with fakes.

/// How two people stand to each other (household's invitations, messaging's direct conversations).
public protocol SocialRelationshipLookup: Sendable {
    /// How `a` stands to `b`.
    func relationship(_ a: String, _ b: String) async throws -> SocialFacts
}

/// How one viewer stands to each of many others; users the graph does not know are neither friends nor blocked.
public protocol SocialRelationshipsLookup: Sendable {
    /// How `viewer` stands to each of `others`.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts]
}

/// How the viewer stands to others in the words of public answers (``RelationFlags``), and which of them blocked
/// the viewer (to be left out of what the viewer is shown): identity's directory.
public protocol SocialRelationsLookup: Sendable {
    /// How `viewer` stands to each of `others`, and who of them blocked the viewer.
    func relations(of viewer: String, among others: [String]) async throws
        -> (flags: [String: RelationFlags], blockedBy: Set<String>)
}

/// One person's friends.
public protocol FriendIDsLookup: Sendable {
    /// The user's friends.
    func friendIDs(of user: String) async throws -> Set<String>
}

/// Those one person follows, with their approval.
public protocol FollowingIDsLookup: Sendable {
    /// The ids of the users `user` follows (approved requests only).
    func followingIDs(of user: String, requestID: String?) async throws -> [String]
}

/// One person's friends, and those blocked by or blocking them, in one answer.
public protocol FriendAndBlockedIDsLookup: Sendable {
    /// The user's friends, and those the user blocked or was blocked by.
    func friendAndBlockedIDs(of user: String) async throws -> (friends: Set<String>, blocked: Set<String>)
}

extension SocialGraphClient: SocialRelationshipLookup, SocialRelationshipsLookup, SocialRelationsLookup,
    FriendIDsLookup, FollowingIDsLookup, FriendAndBlockedIDsLookup
{}

extension KeptSocialGraph: SocialRelationshipsLookup, FriendIDsLookup, FriendAndBlockedIDsLookup {}
