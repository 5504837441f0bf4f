/// CSV as RFC 4180 writes it (CRLF line ends; a cell with a comma, quote or line break quoted, quotes doubled), with
/// a guard against formula injection: a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets
/// a leading `'`, so a spreadsheet shows it rather than evaluates it (OWASP's advice).
enum CSV {
    /// A text cell the user wrote (title, comment, unit): guarded, then quoted as needed.
    static func text(_ value: String) -> String {
        let guarded = value.first.map { "=+-@\t\r".contains($0) } == true ? "'" + value : value
        return quoted(guarded)
    }

    /// A cell the service wrote (a date, a number): quoted as needed, never changed.
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record, ending with CRLF.
    static func line(_ cells: [String]) -> String { cells.joined(separator: ",") + "\r\n" }
}

extension Amounts {
    /// Thousandths as a plain decimal ("2.5", "20", "0.125"), for CSV.
    static func text(_ thousandths: Int64) -> String {
        let (whole, fraction) = (thousandths / 1000, thousandths % 1000)
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return String(whole) + "." + digits
    }
}
