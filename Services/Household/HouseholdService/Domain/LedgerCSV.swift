import Foundation
import PlatformKit

/// A household's bills and payments as one spreadsheet (PlatformKit's ``CSV``: RFC 4180, formulas guarded), oldest
/// first, like Splitwise's export: a row per bill or payment, with one column per person holding their share of
/// each bill. Amounts are exact decimals of the row's currency ("12.50"), never converted. A bill several paid is
/// still one row; its `paid_by` names each payer with what they paid, most first ("Alice 60.00; Bob 30.00").
enum LedgerCSV {
    /// The newest bills and the newest payments the export holds, each.
    static let maximumRows = 10_000

    static let header = [
        "date", "type", "description", "category", "amount", "currency", "paid_by", "paid_to", "created_at", "id",
    ]

    /// The file: the header (then each person's name), then the rows by creation instant; `names` are display names
    /// by id (an id without one is written as is).
    static func csv(_ ledger: HouseholdLedger, names: [String: String]) -> String {
        let zone = TimeZone(identifier: ledger.timeZone) ?? .gmt
        let people = people(ledger)
        let plainName = { (id: String) in names[id].flatMap { $0.isEmpty ? nil : $0 } ?? id }
        let name = { (id: String) in CSV.text(plainName(id)) }
        // Sorted by instant; at one instant bills before payments, then by id.
        var rows: [(Date, Int, String, String)] = ledger.bills.map { stored in
            let (bill, shares) = (stored.bill, stored.shares)
            let paidBy =
                stored.paid.count > 1
                ? CSV.text(
                    BillPayers.list(stored.paid).map {
                        plainName($0.userId) + " " + MinorUnits.decimal($0.amount, bill.currency)
                    }.joined(separator: "; "))
                : name(bill.payerId)
            let cells = [
                LocalDay(bill.createdAt, in: zone).description, "bill", CSV.text(bill.description), bill.category,
                MinorUnits.decimal(bill.amount, bill.currency), bill.currency, paidBy, "",
                bill.createdAt.ISO8601Format(), CSV.quoted(bill.id),
            ]
            let parts = people.map { shares[$0].map { MinorUnits.decimal($0, bill.currency) } ?? "" }
            return (bill.createdAt, 0, bill.id, CSV.line(cells + parts))
        }
        rows += ledger.payments.map { payment in
            let cells = [
                LocalDay(payment.createdAt, in: zone).description, "payment", "Payment", "",
                MinorUnits.decimal(payment.amount, payment.currency), payment.currency, name(payment.fromId),
                name(payment.toId), payment.createdAt.ISO8601Format(), CSV.quoted(payment.id),
            ]
            return (payment.createdAt, 1, payment.id, CSV.line(cells + people.map { _ in "" }))
        }
        rows.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        return CSV.line(header + people.map(name)) + rows.map(\.3).joined()
    }

    /// The current members, then anyone else a bill or payment names (members who left), by id.
    static func people(_ ledger: HouseholdLedger) -> [String] {
        var others = Set(ledger.bills.flatMap { [$0.bill.payerId] + $0.shares.keys + $0.paid.keys })
        others.formUnion(ledger.payments.flatMap { [$0.fromId, $0.toId] })
        return ledger.members + others.subtracting(ledger.members).sorted()
    }
}
