import Foundation

/// Money as the platform takes it from clients: whole minor units (cents) in an ISO 4217 currency, with one
/// bound for every amount so that sums of many amounts stay far from `Int` overflow.
public enum Money {
    /// The largest single amount, in minor units (1,000,000.00 in a currency with cents).
    public static let maximumAmount = 100_000_000

    /// Whether `value` is a payable amount: more than zero, at most ``maximumAmount``.
    public static func isAmount(_ value: Int) -> Bool { value > 0 && value <= maximumAmount }

    /// Whether `value` is a price, which unlike an amount may be zero (a free item on a receipt).
    public static func isPrice(_ value: Int) -> Bool { value >= 0 && value <= maximumAmount }

    /// `value` when it is an amount; otherwise a 400 problem naming `field`.
    public static func amount(_ value: Int, field: String = "amount") throws -> Int {
        guard isAmount(value) else {
            throw Problem.invalidField(field, "must be a positive amount in minor units, at most 100,000,000.")
        }
        return value
    }

    /// `code` upper-cased when it is an ISO 4217 currency code; otherwise a 400 problem naming `field`.
    public static func currency(_ code: String, field: String = "currency") throws -> String {
        let code = code.uppercased()
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }),
            knownCurrencies.isEmpty || knownCurrencies.contains(code)
        else { throw Problem.invalidField(field, "must be an ISO 4217 code such as EUR.") }
        return code
    }

    // Foundation's list; empty on a system without locale data, where any three letters pass.
    private static let knownCurrencies = Set(Locale.commonISOCurrencyCodes)
}
