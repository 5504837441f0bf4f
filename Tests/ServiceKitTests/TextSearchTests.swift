import GRDB
import GRDBSQLite
import Testing

@testable import ServiceKit

/// ``TextSearch``: what its conditions match, and that a kept statement using them stays compiled between searches.
@Suite struct TextSearchTests {
    static let names = ["Rainy day", "rain", "Brain", "50% off", "50 off", "a_b", "axb", "back\\slash", "Été", "été"]

    /// The names `condition` keeps when `text` is bound to each of its parameters.
    static func matches(_ db: Database, _ condition: String, _ text: String) throws -> [String] {
        let parameters = condition.filter { $0 == "?" }.count
        return try String.fetchAll(
            db, sql: "SELECT name FROM names WHERE \(condition) ORDER BY rowid",
            arguments: StatementArguments(Array(repeating: TextSearch.escaped(text), count: parameters)))
    }

    static func withNames(_ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE names (name TEXT NOT NULL)")
            for name in names { try db.execute(sql: "INSERT INTO names VALUES (?)", arguments: [name]) }
            try body(db)
        }
    }

    @Test func containsAndStartsWithMatchTheTextItselfCaseInsensitiveForASCII() throws {
        try Self.withNames { db throws in
            #expect(try Self.matches(db, TextSearch.contains("name"), "RAIN") == ["Rainy day", "rain", "Brain"])
            #expect(try Self.matches(db, TextSearch.startsWith("name"), "rain") == ["Rainy day", "rain"])
            // LIKE's wildcards and the escape character mean themselves.
            #expect(try Self.matches(db, TextSearch.contains("name"), "50%") == ["50% off"])
            #expect(try Self.matches(db, TextSearch.contains("name"), "a_b") == ["a_b"])
            #expect(try Self.matches(db, TextSearch.startsWith("name"), "back\\") == ["back\\slash"])
            // Beyond ASCII the case counts, as with SQLite's LIKE.
            #expect(try Self.matches(db, TextSearch.contains("name"), "été") == ["été"])
        }
    }

    /// SQLite recompiles a kept statement after a bare `LIKE ?` parameter is bound again; the conditions here put
    /// the wildcards in the SQL, so searching for another text reuses the compiled statement.
    @Test func aKeptStatementIsNotRecompiledForAnotherText() throws {
        func recompilations(_ db: Database, _ condition: String) throws -> Int32 {
            let statement = try db.makeStatement(sql: "SELECT count(*) FROM names WHERE \(condition)")
            for text in ["rain", "off", "b", "été"] {
                _ = try Int.fetchOne(statement, arguments: [TextSearch.escaped(text)])
            }
            return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        }
        try Self.withNames { db throws in
            #expect(try recompilations(db, TextSearch.contains("name")) == 0)
            #expect(try recompilations(db, TextSearch.startsWith("name")) == 0)
            // What the conditions avoid: the pattern bound whole.
            #expect(try recompilations(db, "name LIKE ? ESCAPE '\\'") >= 3)
        }
    }
}
