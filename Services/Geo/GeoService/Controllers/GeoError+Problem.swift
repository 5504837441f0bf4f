import PlatformKit

/// The answer to each refusal of the geo service.
extension GeoError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .notFound(let what): .notFound(what)
        case .invalidField(let field, let detail): .invalidField(field, detail)
        case .tooManyPins: .conflict("too_many_pins", "You already have \(PinLimits.pinsPerUser) pins.")
        case .tooManyColors: .conflict("too_many_colors", "You already chose colours for too many pins.")
        case .tooManyPhotos: .conflict("too_many_photos", "A pin has at most \(PinLimits.photosPerPin) photos.")
        case .tooManyTrips: .conflict("too_many_trips", "You already have \(Trips.tripsPerUser) trips.")
        case .tooManyLivePacks:
            .conflict("too_many_packs", "You are the alpha of \(PackLimits.livePacksPerAlpha) live packs already.")
        case .tooManyMemberships:
            .conflict(
                "too_many_packs", "You are in \(PackLimits.membershipsPerUser) packs already; leave one first.")
        case .notInPack: .conflict("not_a_member", "You are not in this pack.")
        case .joinToWrite(let action): .forbidden("not_a_member", "Join the pack to \(action) in it.")
        case .ownPost: .forbidden("own_post", "You cannot vote on your own post.")
        case .ownPin: .forbidden("own_pin", "You cannot react to your own pin.")
        case .friendsOnly: .forbidden("friends_only", "Only the pin's owner's friends can react to it.")
        case .notAlpha: .forbidden("not_alpha", "Only the pack's alpha (while a member) or an admin can do this.")
        case .fixedOncePosted(let field):
            Problem(
                status: 409, code: "pack_has_posts", title: "Conflict",
                detail: "\(field): cannot change once the pack has posts.",
                errors: [.init(field: field, reason: "cannot change once the pack has posts.")])
        case .notYours(let thing): .forbidden("not_yours", "Only its writer or the pack's alpha can delete a \(thing).")
        case .outsideGeofence(let positionSent):
            .forbidden(
                "outside_geofence",
                positionSent
                    ? "This pack is locked to its area, and you are outside it."
                    : "This pack is locked to its area: send your location in the \(ClientPosition.header) header.")
        case .ownItem(let action): .forbidden("own_item", "You cannot \(action) your own writing.")
        case .adminOnly: .forbidden("admin_only", "Only a platform admin can do this.")
        }
    }
}
