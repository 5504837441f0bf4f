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
