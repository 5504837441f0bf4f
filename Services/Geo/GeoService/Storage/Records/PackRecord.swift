import Foundation

/// A row of `packs`: an anonymous chat room tied to a place and radius.
struct PackRecord: Codable, Sendable {
    var id: Int64?
    var name: String
    var latitude: Double
    var longitude: Double
    var radiusMeters: Int
    /// JSON array of tags.
    var tags: String
    var color: String
    var icon: String
    var locked: Bool
    var alphaId: String
    var official: Bool
    var memberCount: Int
    var postCount: Int
    var upVotes: Int
    var downVotes: Int
    var createdAt: Date
    var expiresAt: Date?
    var warned: Bool

    var tagList: [String] { PackRecord.decodeTags(tags) }

    func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }

    /// Where the pack's content may be seen from.
    var fence: PackFence {
        PackFence(locked: locked, latitude: latitude, longitude: longitude, radiusMeters: radiusMeters)
    }

    var popularity: Double {
        PackLifetime.points(members: memberCount, posts: postCount, upVotes: upVotes, downVotes: downVotes)
    }

    /// The later expiry a user pack earned by becoming more popular, and whether its warning still stands; `nil`
    /// when it keeps its expiry (official packs never expire, and an expiry never moves earlier).
    func refreshedExpiry(now: Date) -> (expiresAt: Date, warned: Bool)? {
        guard !official, let current = expiresAt else { return nil }
        let computed = PackLifetime.expiry(
            createdAt: createdAt, members: memberCount, posts: postCount, upVotes: upVotes, downVotes: downVotes)
        guard computed > current else { return nil }
        // A pack whose expiry moved beyond the warning window will be announced again before its new end.
        return (computed, warned && computed <= now.addingTimeInterval(PackLifetime.warning))
    }

    /// Tags are stored as a JSON array of validated words (letters, digits, `-`, `_`: nothing JSON escapes), so
    /// splitting the text is enough; anything else goes through the JSON decoder.
    static func decodeTags(_ json: String) -> [String] {
        guard json.hasPrefix("[\""), json.hasSuffix("\"]"), !json.contains("\\") else {
            return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
        }
        return json.dropFirst(2).dropLast(2).components(separatedBy: "\",\"")
    }
}

extension PackEdit {
    /// Applies the edit to `pack`; its radius and lock stay as they are once it has posts (409 for a change).
    func apply(to pack: inout PackRecord) throws {
        if pack.postCount > 0 {
            if let radiusMeters, radiusMeters != pack.radiusMeters {
                throw GeoError.fixedOncePosted(field: "radiusMeters")
            }
            if let locked, locked != pack.locked { throw GeoError.fixedOncePosted(field: "locked") }
        }
        if let name { pack.name = name }
        if let tags { pack.tags = StoredJSON.array(tags) }
        if let color { pack.color = color }
        if let icon { pack.icon = icon }
        if let radiusMeters { pack.radiusMeters = radiusMeters }
        if let locked { pack.locked = locked }
    }
}
