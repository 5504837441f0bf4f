import Foundation
import GRDB

/// A row of `preferences`: a user's IANA time zone ("today" is computed in it).
struct PreferenceRecord: HabitsTable {
    static let databaseTableName = "preferences"

    enum Columns {
        static let userId = Column("user_id")
        static let timeZone = Column("time_zone")
    }

    var userId: String
    var timeZone: String
}
