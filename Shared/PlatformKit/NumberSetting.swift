import Foundation

/// A setting that is present but malformed; its description is one line naming the variable to change.
public struct SettingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Strict readers for numeric settings, shared by every executable. swift-configuration's `int(forKey:default:)`
/// returns the default for a value that is not a number: `PORT=abc` would silently listen on the default port.
public enum NumberSetting {
    /// The port `value` of `variable` says, `fallback` when it is unset; `span` ports from it must fit below 65536.
    public static func port(
        _ value: String?, variable: String, default fallback: Int, span: Int = 1
    ) throws(SettingError) -> Int {
        guard let value else { return fallback }
        let highest = 65_535 - (span - 1)
        guard let port = parse(value), (1...highest).contains(port) else {
            let also = span > 1 ? " (the services take it and the \(span - 1) after it)" : ""
            throw SettingError("\(variable) must be a port number from 1 to \(highest)\(also), not '\(value)'.")
        }
        return port
    }

    /// The whole number `value` of `variable` says, within `range`; `fallback` when it is unset.
    public static func wholeNumber(
        _ value: String?, variable: String, default fallback: Int, in range: ClosedRange<Int>
    ) throws(SettingError) -> Int {
        guard let value else { return fallback }
        guard let number = parse(value), range.contains(number) else {
            throw SettingError(
                "\(variable) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'.")
        }
        return number
    }

    /// Decimal digits, optionally signed, between spaces.
    static func parse(_ value: String) -> Int? {
        Int(value.trimmingCharacters(in: .whitespaces))
    }
}
