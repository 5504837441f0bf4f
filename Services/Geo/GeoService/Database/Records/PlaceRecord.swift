import Foundation
import GRDB
import ServiceKit

/// A row of `places`: one city of the gazetteer.
struct PlaceRecord: Codable, FetchableRecord, SnakeCaseColumns, Sendable, Equatable {
    static let databaseTableName = "places"

    enum Columns {
        static let id = Column("id")
    }

    var id: Int64
    var name: String
    var asciiName: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var population: Int
}
