import Logging
import PostgresNIO

/// One pooled connection, in or out of a transaction, and the logger its statements log to: what every PostgreSQL
/// store writes its operations against (``PostgresServiceDatabase/read(_:)`` and
/// ``PostgresServiceDatabase/write(isolation:attempts:_:)`` hand one to their body).
public struct PostgresSession: Sendable {
    /// The connection, for what the helpers below do not cover (streaming a large answer).
    public let connection: PostgresConnection
    /// Where the statements log.
    public let logger: Logger

    /// A session over `connection`.
    public init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Every row `query` answers, for decoding by position (`row.decode((String, Int64).self)`).
    public func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
    }

    /// The first row `query` answers, decoded by `decode`, if there is a row.
    public func first<T>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws -> T? {
        try await rows(query).first.map(decode)
    }

    /// The first column of the first row `query` answers, if there is a row.
    public func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        try await first(query) { try $0.decode(T.self) }
    }

    /// Every row `query` answers, for reading by column name (``PostgresNIO/PostgresRandomAccessRow/get(_:as:)``).
    public func namedRows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await rows(query).map { $0.makeRandomAccess() }
    }

    /// The first row `query` answers, for reading by column name, if there is a row.
    public func namedRow(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first?.makeRandomAccess()
    }

    /// Runs `query`; returns how many rows it answered (a `RETURNING` clause counts what it changed).
    @discardableResult
    public func execute(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count
    }

    /// Tells every replica's listener of `channel` (``PostgresChangeListener``) when this transaction commits, at
    /// once outside one.
    public func notify(_ channel: String, payload: String = "") async throws {
        try await connection.notify(channel, payload: payload, logger: logger)
    }
}

extension PostgresRandomAccessRow {
    /// The value of `column`, decoded.
    public func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }
}

extension PostgresSession {
    /// Every row a prepared statement answers. The connection parses and plans it once and then only binds and runs
    /// it: for the hottest reads, where parsing and planning were a third of the server's CPU (docs/benchmarks.md).
    public func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }

    /// The first row a prepared statement answers, if any.
    public func first<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> Statement.Row? {
        try await rows(statement).first
    }
}

/// SQL a store runs often enough to prepare once per connection; the conforming type names the statement.
public protocol PreparedSQL {
    /// The statement, its values as `$1`, `$2`...
    static var sql: String { get }
}

/// A ``PreparedSQL`` statement with its values, answering rows for the caller to decode, as an unprepared query's
/// would (`session.rows(Prepared<PinsOfUsers>(ids, south, north))`).
public struct Prepared<Statement: PreparedSQL>: PostgresPreparedStatement {
    public static var sql: String { Statement.sql }
    public static var name: String { String(reflecting: Statement.self) }
    private let bindings: PostgresBindings

    /// The statement with `values` bound to `$1`, `$2`... in order.
    public init<each Value: PostgresDynamicTypeEncodable>(_ values: repeat each Value) {
        var bindings = PostgresBindings()
        repeat bindings.append(each values)
        self.bindings = bindings
    }

    public func makeBindings() -> PostgresBindings { bindings }

    public func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
