import Foundation

/// Amounts in minor units written for people and payment apps.
enum MinorUnits {
    /// ISO 4217 currencies whose minor unit is not the cent.
    private static let zeroDecimal: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
        "XOF", "XPF",
    ]
    private static let threeDecimal: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    static func exponent(_ currency: String) -> Int {
        zeroDecimal.contains(currency) ? 0 : threeDecimal.contains(currency) ? 3 : 2
    }

    /// `1234` EUR is "12.34"; `1234` JPY is "1234". A dot, never a locale's comma.
    static func decimal(_ amount: Int, _ currency: String) -> String {
        let exponent = exponent(currency)
        guard exponent > 0 else { return String(amount) }
        let scale = Int(pow(10, Double(exponent)))
        let fraction = String(abs(amount) % scale)
        return (amount < 0 ? "-" : "") + "\(abs(amount) / scale)."
            + String(repeating: "0", count: exponent - fraction.count)
            + fraction
    }
}

/// Deep links that open a payment app with the payee and amount filled in; the app does the paying.
enum PaymentLink {
    enum Provider: String, Codable, Sendable {
        case venmo, paypal
    }

    /// Venmo usernames: 5-30 letters, digits, hyphens or underscores.
    static func venmoHandle(_ text: String) throws -> String {
        let handle = text.hasPrefix("@") ? String(text.dropFirst()) : text
        guard (5...30).contains(handle.count),
            handle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw HouseholdError.invalidField("venmo", "must be a Venmo username (5-30 letters, digits, - or _).") }
        return handle
    }

    /// PayPal.Me names: 1-20 letters and digits.
    static func paypalHandle(_ text: String) throws -> String {
        guard (1...20).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw HouseholdError.invalidField("paypal", "must be a PayPal.Me name (1-20 letters and digits).")
        }
        return text
    }

    /// `venmo://paycharge?txn=pay&recipients=<handle>&amount=12.34&note=...` (Venmo pays in US dollars only)
    /// or `https://www.paypal.me/<handle>/12.34EUR`.
    static func url(_ provider: Provider, handle: String, amount: Int, currency: String, note: String) throws -> String
    {
        let decimal = MinorUnits.decimal(amount, currency)
        switch provider {
        case .venmo:
            guard currency == "USD" else {
                throw HouseholdError.invalidField("currency", "Venmo only pays in USD; use PayPal for \(currency).")
            }
            var components = URLComponents()
            components.scheme = "venmo"
            components.host = "paycharge"
            components.queryItems = [
                URLQueryItem(name: "txn", value: "pay"), URLQueryItem(name: "recipients", value: handle),
                URLQueryItem(name: "amount", value: decimal), URLQueryItem(name: "note", value: note),
            ]
            // URLComponents leaves "+" alone in queries, which a form decoder would read as a space.
            return (components.string ?? "").replacingOccurrences(of: "+", with: "%2B")
        case .paypal:
            return "https://www.paypal.me/\(handle)/\(decimal)\(currency)"
        }
    }
}
