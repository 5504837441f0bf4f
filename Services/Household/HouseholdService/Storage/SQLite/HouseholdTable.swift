import GRDB
import ServiceKit

/// What every record of this service is: a row of one table, its columns the snake_case of its properties.
protocol HouseholdTable: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {}
