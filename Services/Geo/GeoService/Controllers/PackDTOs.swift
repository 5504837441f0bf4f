import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

// Pack responses never carry a user id, username or e-mail: writers appear as per-pack pseudonyms, and only the
// viewer's own things say so (`isMine`, `isAlpha`, `myVote`).

/// A pack as a viewer sees it; `contentVisible` is false for a locked pack the viewer is outside of.
struct PackView: ResponseEncodable, Sendable {
    var id: String
    var name: String
    var latitude: Double
    var longitude: Double
    var radiusMeters: Int
    var tags: [String]
    var color: String
    var icon: String
    var locked: Bool
    /// Made by an admin: never expires.
    var official: Bool
    var memberCount: Int
    var postCount: Int
    /// The popularity points of ``PackLifetime`` (members, posts, Wilson-weighted votes).
    var popularity: Double
    var createdAt: Date
    var expiresAt: Date?
    /// From the `Geo-Position` sent, rounded (100 m steps under 1 km, then whole kilometres).
    var distanceMeters: Int?
    /// Whether the `Geo-Position` sent is inside the pack's radius.
    var inside: Bool?
    var contentVisible: Bool
    var member: Bool
    var isAlpha: Bool
    /// My name in this pack, when I am a member.
    var myPseudonym: String?

    init(_ pack: PackRecord, viewer: String, pseudonym: String?, position: ClientPosition?) {
        id = String(pack.id ?? 0)
        name = pack.name
        latitude = pack.latitude
        longitude = pack.longitude
        radiusMeters = pack.radiusMeters
        tags = pack.tagList
        color = pack.color
        icon = pack.icon
        locked = pack.locked
        official = pack.official
        memberCount = pack.memberCount
        postCount = pack.postCount
        popularity = (pack.popularity * 100).rounded() / 100
        createdAt = pack.createdAt
        expiresAt = pack.expiresAt
        distanceMeters = position.map {
            ClientPosition.roundedDistance($0.distance(toLatitude: pack.latitude, longitude: pack.longitude))
        }
        inside = position.map {
            $0.isInside(latitude: pack.latitude, longitude: pack.longitude, radius: pack.radiusMeters)
        }
        contentVisible = pack.fence.admits(position)
        member = pseudonym != nil
        // An alpha who left keeps the title but not the rights, so the app must not offer them.
        isAlpha = pack.alphaId == viewer && pseudonym != nil
        myPseudonym = pseudonym
    }
}

/// The face of the pack a post came from (feed items show it).
struct PackFace: Codable, Sendable {
    var id: String
    var name: String
    var color: String
    var icon: String
}
