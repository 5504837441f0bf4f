import Crypto
import Foundation

/// The bounds of packs, posts and comments.
enum PackLimits {
    static let radius = 50...25_000
    static let nameLength = 60
    static let tagsPerItem = 5
    static let tagLength = 24
    static let iconLength = 32
    static let titleLength = 120
    static let bodyLength = 2_000
    static let commentLength = 1_000
    /// Live packs a user (not an admin) may be the alpha of at once.
    static let livePacksPerAlpha = 5
    /// Packs a user may be an active member of.
    static let membershipsPerUser = 100
    /// A post is hidden for good once its score falls to this (Yik Yak's rule).
    static let hidingScore = -5
    /// Discover's default and largest search radius in metres.
    static let discoverRadius = 10_000
    static let maximumDiscoverRadius = 50_000
    /// Discover ranks posts of at most this many nearest packs (bounded work per request).
    static let discoverPostPacks = 100
    /// Discover's `sort=best` for posts ranks the newest this many posts of those packs.
    static let bestCandidates = 500
}

/// How long a user pack lives: 24 hours, extended toward 48 by popularity. Admin packs never expire.
///
/// `points = (members - 1) + 2·posts + votes·wilson(up, votes)` and
/// `lifetime = 24 h + 24 h · (1 - e^(-points / 50))`: the alpha alone earns nothing, each post twice what a member
/// does, and votes count only as far as they are mostly up (the Wilson lower bound, z = 1.28), so a pile of
/// down-votes does not keep a pack alive. The extension never shrinks: an expiry once announced only moves later.
enum PackLifetime {
    static let base: TimeInterval = 24 * 3600
    static let maximumExtension: TimeInterval = 24 * 3600
    static let scale = 50.0
    /// Members are told this long before their pack expires.
    static let warning: TimeInterval = 3600

    static func points(members: Int, posts: Int, upVotes: Int, downVotes: Int) -> Double {
        let votes = upVotes + downVotes
        return Double(max(0, members - 1)) + 2 * Double(posts)
            + Double(votes) * PostRanking.wilsonLowerBound(up: upVotes, total: votes)
    }

    static func expiry(createdAt: Date, members: Int, posts: Int, upVotes: Int, downVotes: Int) -> Date {
        let points = points(members: members, posts: posts, upVotes: upVotes, downVotes: downVotes)
        return createdAt.addingTimeInterval(base + maximumExtension * (1 - exp(-points / scale)))
    }
}

/// How long a post in an official (admin) pack lives: official packs never expire, but their posts follow the
/// user-pack rule, each post on its own: 24 hours, extended toward 48 by the post's popularity, with
/// `points = 2·comments + votes·wilson(up, votes)` (a comment counts as a post does for a pack).
enum OfficialPostLifetime {
    /// The pack rule with the post as a pack of one member whose posts are its comments.
    static func expiry(createdAt: Date, comments: Int, upVotes: Int, downVotes: Int) -> Date {
        PackLifetime.expiry(createdAt: createdAt, members: 1, posts: comments, upVotes: upVotes, downVotes: downVotes)
    }
}

/// Discover's `sort=best`, for packs and posts alike: one score for popularity, age and distance,
///
/// `best = (1 + points) · ½^(age / 12 h) · (1 − ½ · min(1, distance / radius))`
///
/// where `points` is a pack's ``PackLifetime`` points or a post's `2·comments + votes·wilson(up, votes)`, `age` runs
/// from creation, `distance` is from the client to the pack's centre and `radius` is the search radius. So twelve
/// hours halve a score, a pack at the edge of the search counts half of one at the client's feet, and popularity
/// weighs in proportion. Ties go to the newer (higher id).
enum DiscoverRanking {
    static let halfLife: TimeInterval = 12 * 3600

    static func score(points: Double, age: TimeInterval, distance: Double, radius: Double) -> Double {
        let decay = pow(0.5, max(0, age) / halfLife)
        let nearness = 1 - 0.5 * min(1, max(0, distance) / max(1, radius))
        return (1 + max(0, points)) * decay * nearness
    }

    /// A post's points: comments count as a pack's posts do, votes as far as they are mostly up.
    static func points(comments: Int, upVotes: Int, downVotes: Int) -> Double {
        PackLifetime.points(members: 1, posts: comments, upVotes: upVotes, downVotes: downVotes)
    }
}

/// Ranking of posts.
enum PostRanking {
    /// Reddit's "hot": `sign(s)·log10(max(|s|, 1)) + t / 45000` with `s` = ups − downs and `t` the creation time
    /// in seconds since 1970. Ten times the score is worth 12.5 hours of recency; the value is fixed between votes,
    /// so it is stored and indexed.
    static func hot(up: Int, down: Int, createdAt: Date) -> Double {
        let score = Double(up - down)
        let sign: Double = score > 0 ? 1 : (score < 0 ? -1 : 0)
        return sign * log10(max(abs(score), 1)) + createdAt.timeIntervalSince1970 / 45_000
    }

    /// The lower bound of the Wilson score interval for the share of up-votes (z = 1.28, 80 % confidence).
    static func wilsonLowerBound(up: Int, total: Int) -> Double {
        guard total > 0 else { return 0 }
        let n = Double(total)
        let p = Double(up) / n
        let z = 1.28
        let z2 = z * z
        return (p + z2 / (2 * n) - z * sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n)
    }
}

/// Per-pack pseudonyms: a keyed hash of (pack, user) picks an adjective and an animal, so a writer keeps one name
/// inside a pack and names cannot be linked across packs without the key. A name already held in the pack is
/// skipped by hashing again with the next attempt number.
enum Pseudonyms {
    static func candidate(key: Data, pack: Int64, user: String, attempt: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(pack):\(user):\(attempt)".utf8), using: SymmetricKey(data: key))
        let bytes = Array(mac)
        let name = adjectives[Int(bytes[0]) % adjectives.count] + " " + animals[Int(bytes[1]) % animals.count]
        // After a few collisions a number keeps names unique in very large packs.
        return attempt < 8 ? name : name + " \(Int(bytes[2]) % 100 + attempt)"
    }

    static let adjectives = [
        "Amber", "Azure", "Bold", "Brave", "Bright", "Calm", "Clever", "Coral", "Cosmic", "Crimson", "Curious",
        "Daring", "Dusky", "Eager", "Electric", "Fancy", "Fearless", "Gentle", "Gilded", "Golden", "Happy", "Hidden",
        "Humble", "Icy", "Jade", "Jolly", "Keen", "Lively", "Lucky", "Lunar", "Mellow", "Misty", "Mossy", "Noble",
        "Nimble", "Olive", "Orange", "Plucky", "Polar", "Proud", "Quick", "Quiet", "Rapid", "Rosy", "Rusty", "Sandy",
        "Scarlet", "Shy", "Silent", "Silver", "Sleepy", "Smoky", "Snowy", "Solar", "Spicy", "Stormy", "Sunny",
        "Swift", "Teal", "Tidy", "Velvet", "Violet", "Witty", "Zesty",
    ]
    static let animals = [
        "Alpaca", "Badger", "Beaver", "Bison", "Bobcat", "Camel", "Cheetah", "Cobra", "Coyote", "Crane", "Dingo",
        "Dolphin", "Eagle", "Falcon", "Ferret", "Finch", "Fox", "Gecko", "Gopher", "Heron", "Hyena", "Ibis", "Jackal",
        "Jaguar", "Koala", "Lemur", "Lynx", "Marmot", "Marten", "Meerkat", "Mink", "Moose", "Narwhal", "Newt",
        "Ocelot", "Orca", "Osprey", "Otter", "Owl", "Panda", "Panther", "Parrot", "Pelican", "Penguin", "Puffin",
        "Quokka", "Rabbit", "Raccoon", "Raven", "Salmon", "Seal", "Sloth", "Sparrow", "Stoat", "Swan", "Tapir",
        "Tiger", "Toucan", "Turtle", "Walrus", "Weasel", "Whale", "Wolf", "Yak",
    ]
}

/// Where the client is, sent with each request in the `Geo-Position: <latitude>;<longitude>` header (the form of
/// the Geo-Position draft, draft-daviel-http-geo-header). Locked packs need it; discover centres on it.
struct ClientPosition: Sendable, Equatable {
    var latitude: Double
    var longitude: Double

    func distance(toLatitude latitude: Double, longitude: Double) -> Double {
        Geodesy.distance(self.latitude, self.longitude, latitude, longitude)
    }

    /// Inside a circle, edge included (a centimetre of slack absorbs floating-point noise on the boundary).
    func isInside(latitude: Double, longitude: Double, radius: Int) -> Bool {
        distance(toLatitude: latitude, longitude: longitude) <= Double(radius) + 0.01
    }

    /// A distance as shown to users: to the nearest 100 m under 1 km (at least 100 m), to the nearest kilometre
    /// above, so repeated looks from different places cannot place anything more finely than that.
    static func roundedDistance(_ meters: Double) -> Int {
        meters < 950 ? max(100, Int((meters / 100).rounded()) * 100) : Int((meters / 1_000).rounded()) * 1_000
    }
}

/// Text from anonymous writers: control characters (other than line breaks and tabs in bodies) are stripped,
/// not refused; the routes then trim and check the length as for any text.
/// A validated change to a pack: each field set is changed, the rest kept.
struct PackEdit: Sendable, Equatable {
    var name: String?
    var tags: [String]?
    var color: String?
    var icon: String?
    var radiusMeters: Int?
    var locked: Bool?
}

enum AnonymousText {
    /// A one-line text (name, title, icon) without any control character.
    static func line(_ value: String) -> String { strip(value, keepingLineBreaks: false) }

    /// A body: line breaks and tabs kept.
    static func body(_ value: String) -> String { strip(value, keepingLineBreaks: true) }

    static func strip(_ value: String, keepingLineBreaks: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control {
                if keepingLineBreaks && (scalar == "\n" || scalar == "\t") { scalars.append(scalar) }
                continue
            }
            // Bidirectional overrides and zero-width formatting let a post disguise its text.
            if category == .format && scalar != "\u{200D}" { continue }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Lower-case tags without a leading `#`, letters, digits, `-` and `_`, at most five, duplicates merged.
    static func tags(_ values: [String]?, field: String = "tags", required: Bool) throws(GeoError) -> [String] {
        let values = values ?? []
        var tags: [String] = []
        for value in values {
            var tag = value.trimmingCharacters(in: .whitespaces).lowercased()
            if tag.hasPrefix("#") { tag.removeFirst() }
            guard (1...PackLimits.tagLength).contains(tag.count),
                tag.unicodeScalars.allSatisfy({
                    $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_"
                })
            else {
                throw .invalidField(
                    field, "each tag is 1 to \(PackLimits.tagLength) letters, digits, '-' or '_'.")
            }
            if !tags.contains(tag) { tags.append(tag) }
        }
        guard tags.count <= PackLimits.tagsPerItem else {
            throw .invalidField(field, "at most \(PackLimits.tagsPerItem) tags.")
        }
        guard !required || !tags.isEmpty else { throw .invalidField(field, "choose at least one tag.") }
        return tags
    }
}
