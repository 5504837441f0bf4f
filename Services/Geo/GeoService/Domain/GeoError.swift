/// Everything the geo service refuses, with what the answer needs; `GeoError+Problem.swift` maps each case to
/// the problem a client receives.
enum GeoError: Error, Equatable {
    /// Nothing the caller may see: missing, expired, or hidden from them (`what` as the client reads it).
    case notFound(String)
    /// One field of the request is wrong: the field as the client names it, and why.
    case invalidField(String, String)
    /// A user keeps at most ``PinLimits/pinsPerUser`` pins.
    case tooManyPins
    /// A user chooses colours for at most ``PinLimits/pinsPerUser`` pins.
    case tooManyColors
    /// A pin has at most ``PinLimits/photosPerPin`` photos.
    case tooManyPhotos
    /// A user keeps at most ``Trips/tripsPerUser`` trips.
    case tooManyTrips
    /// A user is the alpha of at most ``PackLimits/livePacksPerAlpha`` live packs.
    case tooManyLivePacks
    /// A user is in at most ``PackLimits/membershipsPerUser`` packs.
    case tooManyMemberships
    /// Leaving a pack one is not in.
    case notInPack
    /// Writing in a pack needs membership (`action`: post, vote, comment).
    case joinToWrite(action: String)
    /// Writers do not vote on their own posts.
    case ownPost
    /// Nobody reacts to their own pin.
    case ownPin
    /// Only the owner's friends react to a pin.
    case friendsOnly
    /// Only the pack's alpha (or an admin) closes it.
    case notAlpha
    /// A pack's radius or lock changes no more once it has posts (they were written for that area).
    case fixedOncePosted(field: String)
    /// Only the writer or the pack's alpha (or an admin) deletes a post or comment (`thing`).
    case notYours(thing: String)
    /// A locked pack's content is for those inside its radius; `positionSent` tells whether the client said where
    /// it is.
    case outsideGeofence(positionSent: Bool)
    /// Reporting or muting (`action`) one's own post or comment.
    case ownItem(action: String)
    /// The report queue and its decisions are for platform admins.
    case adminOnly
}
