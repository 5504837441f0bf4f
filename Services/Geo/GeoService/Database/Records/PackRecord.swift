import Foundation
import GRDB
import ServiceKit

/// A row of `packs`: an anonymous chat room tied to a place and radius.
struct PackRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "packs"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let radiusMeters = Column("radius_meters")
        static let tags = Column("tags")
        static let color = Column("color")
        static let icon = Column("icon")
        static let locked = Column("locked")
        static let alphaID = Column("alpha_id")
        static let official = Column("official")
        static let memberCount = Column("member_count")
        static let postCount = Column("post_count")
        static let upVotes = Column("up_votes")
        static let downVotes = Column("down_votes")
        static let createdAt = Column("created_at")
        static let expiresAt = Column("expires_at")
        static let warned = Column("warned")
    }

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

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var tagList: [String] { PackRecord.decodeTags(tags) }

    func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }

    /// Where the pack's content may be seen from.
    var fence: PackFence {
        PackFence(locked: locked, latitude: latitude, longitude: longitude, radiusMeters: radiusMeters)
    }

    var popularity: Double {
        PackLifetime.points(members: memberCount, posts: postCount, upVotes: upVotes, downVotes: downVotes)
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

extension PackRecord {
    /// Reads the columns by name: lists decode hundreds of packs, and Codable's snake-case decoding costs
    /// several times more.
    init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        latitude = row[Columns.latitude]
        longitude = row[Columns.longitude]
        radiusMeters = row[Columns.radiusMeters]
        tags = row[Columns.tags]
        color = row[Columns.color]
        icon = row[Columns.icon]
        locked = row[Columns.locked]
        alphaId = row[Columns.alphaID]
        official = row[Columns.official]
        memberCount = row[Columns.memberCount]
        postCount = row[Columns.postCount]
        upVotes = row[Columns.upVotes]
        downVotes = row[Columns.downVotes]
        createdAt = row[Columns.createdAt]
        expiresAt = row[Columns.expiresAt]
        warned = row[Columns.warned]
    }
}
