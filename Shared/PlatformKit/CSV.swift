import Foundation

/// CSV as RFC 4180 writes it (CRLF line ends; a cell with a comma, quote or line break quoted, quotes doubled), with
/// a guard against formula injection: a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets
/// a leading `'`, so a spreadsheet shows it rather than evaluates it (OWASP's advice).
public enum CSV {
    /// A text cell the user wrote (title, comment, name): guarded, then quoted as needed.
    public static func text(_ value: String) -> String {
        let guarded = value.first.map { "=+-@\t\r".contains($0) } == true ? "'" + value : value
        return quoted(guarded)
    }

    /// A cell the service wrote (a date, a number): quoted as needed, never changed.
    public static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record, ending with CRLF.
    public static func line(_ cells: [String]) -> String { cells.joined(separator: ",") + "\r\n" }
}
