/// SQL conditions for a client's search text, matched with SQLite's `LIKE` (case-insensitive for ASCII).
///
/// The wildcards are written in the SQL (`LIKE '%' || ? || '%'`), not into the bound argument: SQLite recompiles a
/// statement on its next step whenever a bare `LIKE ?` parameter is bound again (its planner may use a pattern's
/// fixed prefix), so a kept statement was compiled anew on every search, and with GRDB's authorizer noting each
/// column it reads, compiling costs more than most reads.
public enum TextSearch {
    /// `text` with `LIKE`'s wildcards and the escape character escaped, so a search for "50%" means that text.
    /// Bind it to the `?` of ``contains(_:)`` or ``startsWith(_:)``.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// `column` contains the bound (escaped) text.
    public static func contains(_ column: String) -> String {
        "\(column) LIKE '%' || ? || '%' ESCAPE '\\'"
    }

    /// `column` starts with the bound (escaped) text.
    public static func startsWith(_ column: String) -> String {
        "\(column) LIKE ? || '%' ESCAPE '\\'"
    }
}
