import Foundation
import GRDB
import ServiceKit

/// A row of `session_revocations`: a session that ended while its access tokens were still valid.
struct SessionRevocationRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "session_revocations"

    var sequence: Int64
    var sessionId: String
    var expiresAt: Date

    enum Columns {
        static let sequence = Column("sequence")
        static let sessionId = Column("session_id")
        static let expiresAt = Column("expires_at")
    }
}
