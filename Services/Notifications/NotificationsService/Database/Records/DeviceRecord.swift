import Foundation
import GRDB
import ServiceKit

/// A row of `devices`: one APNs token, of one session of one user.
struct DeviceRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "devices"
    var token: String
    var userId: String
    var sessionId: String
    var environment: String
    var createdAt: Date

    enum Columns {
        static let token = Column("token")
        static let userId = Column("user_id")
        static let sessionId = Column("session_id")
        static let createdAt = Column("created_at")
    }
}
