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
    /// several times more. `decode` throws for a value that does not fit, as the `Codable` path does, where GRDB's
    /// subscript would stop the process.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        latitude = try row.decode(forColumn: Columns.latitude)
        longitude = try row.decode(forColumn: Columns.longitude)
        radiusMeters = try row.decode(forColumn: Columns.radiusMeters)
        tags = try row.decode(forColumn: Columns.tags)
        color = try row.decode(forColumn: Columns.color)
        icon = try row.decode(forColumn: Columns.icon)
        locked = try row.decode(forColumn: Columns.locked)
        alphaId = try row.decode(forColumn: Columns.alphaID)
        official = try row.decode(forColumn: Columns.official)
        memberCount = try row.decode(forColumn: Columns.memberCount)
        postCount = try row.decode(forColumn: Columns.postCount)
        upVotes = try row.decode(forColumn: Columns.upVotes)
        downVotes = try row.decode(forColumn: Columns.downVotes)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
        expiresAt = try row.decodeDateIfPresent(forColumn: Columns.expiresAt)
        warned = try row.decode(forColumn: Columns.warned)
    }
}
