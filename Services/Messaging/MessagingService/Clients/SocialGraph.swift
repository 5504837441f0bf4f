import ServiceKit

/// The social graph's ports messaging holds: one pair (may these two talk?) and one viewer with many others (who may
/// join a group). A name of its own only so the controllers keep theirs; the ports are ServiceKit's.
public typealias SocialGraph = SocialRelationshipLookup & SocialRelationshipsLookup
