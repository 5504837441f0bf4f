/// What PostgreSQL's `text` can hold: any string but one with a NUL character (SQLite's text may hold one; bound in
/// a PostgreSQL query it fails the statement). A client's id or search holding one can match nothing stored, so a
/// store answers as if nothing matched instead of failing.
public enum PostgresText {
    /// Whether every one of `texts` (nil counts as fitting) can be bound as PostgreSQL `text`.
    public static func fits(_ texts: String?...) -> Bool {
        texts.allSatisfy { !($0?.utf8.contains(0) ?? false) }
    }

    /// Those of `texts` that can be bound as PostgreSQL `text`, in order.
    public static func fitting(_ texts: [String]) -> [String] {
        texts.filter { !$0.utf8.contains(0) }
    }
}
