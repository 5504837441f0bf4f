/// Where a pack's content may be seen from: anywhere, or for a locked pack only inside its radius.
struct PackFence: Sendable, Equatable {
    var locked: Bool
    var latitude: Double
    var longitude: Double
    var radiusMeters: Int

    /// Whether the content may be seen from `position` (a locked pack's needs a position inside it).
    func admits(_ position: ClientPosition?) -> Bool {
        guard locked else { return true }
        return position?.isInside(latitude: latitude, longitude: longitude, radius: radiusMeters) ?? false
    }

    /// Refuses a position outside a locked pack.
    func check(_ position: ClientPosition?) throws(GeoError) {
        guard !admits(position) else { return }
        throw .outsideGeofence(positionSent: position != nil)
    }
}

/// Who may see and write what in packs. An expired pack is a missing one. A locked pack's content (posts,
/// comments, votes) is visible and writable only from inside its radius; the pack itself stays listed (name,
/// tags, distance) with `contentVisible: false`. Writing needs membership as well. The alpha's rights hold only
/// while the alpha is an active member: callers pass the acting alpha (`alpha`), `nil` once the creator has left.
enum PackAccess {
    /// Its writer, the pack's alpha or an admin deletes a post or comment (`thing`).
    static func requireMayDelete(author: String, alpha: String?, viewer: String, isAdmin: Bool, thing: String)
        throws(GeoError)
    {
        guard author == viewer || alpha == viewer || isAdmin else { throw .notYours(thing: thing) }
    }

    /// The alpha or an admin closes or edits a pack.
    static func requireMayClose(alpha: String?, viewer: String, isAdmin: Bool) throws(GeoError) {
        guard alpha == viewer || isAdmin else { throw .notAlpha }
    }
}
