import GRDB

/// A record of one of a service's SQLite tables: a row, its columns the snake_case of its properties
/// (``SnakeCaseColumns``). Every service's table records conform (`extension PinRecord: ServiceTable`); those whose
/// writes never change the record (no id assigned on insert) add `PersistableRecord`. Decode-only read models
/// (joins, pages) stay plain `FetchableRecord`s.
public protocol ServiceTable: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {}
