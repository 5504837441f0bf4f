import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    func recordPayment(_ payment: PaymentRecord, notices: ChangeNotices<PaymentRecord>?) async throws {
        _ = try await write(reporting: notices) { db in
            // A former member with a balance here still settles it, either way.
            let members = try Self.settlingMembers(db, payment.householdId, asParty: payment.fromId)
            guard try members.contains(payment.toId) || Self.hasBalance(db, payment.householdId, payment.toId) else {
                throw HouseholdError.notAMember
            }
            // Checked against the balances this transaction reads, so two payments racing cannot both pass.
            let net = try Self.balances(db, payment.householdId)[payment.currency] ?? [:]
            let limit = PaymentRule.limit(payerNet: net[payment.fromId] ?? 0, payeeNet: net[payment.toId] ?? 0)
            guard payment.amount <= limit.payable else {
                throw HouseholdError.overpayment(limit, currency: payment.currency)
            }
            try payment.insert(db)
            try Self.adjustBalances(
                db, payment.householdId, payment.currency,
                [payment.fromId: payment.amount, payment.toId: -payment.amount])
            try Self.record(db, payment.householdId, "payment", payment.fromId, "paid a roommate", payment.createdAt)
            return payment
        }
    }

    /// Each member's net balance per currency: what they paid (bills, payments made) minus what they owe
    /// (their shares, payments received). Every currency sums to zero. Read from the running balances; a former
    /// member with a balance here reads them too.
    func balances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        try await read { db in
            (try Self.settlingMembers(db, householdID, asParty: userID), try Self.balances(db, householdID))
        }
    }

    static func balances(_ db: Database, _ householdID: String) throws -> [String: [String: Int]] {
        var net: [String: [String: Int]] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT currency, user_id, net FROM member_balances WHERE household_id = ?"),
            arguments: [householdID])
        while let row = try rows.next() {
            net[row[0], default: [:]][row[1]] = row[2] as Int
        }
        return net
    }

    /// The same balances summed from every bill, share and payment (what the running balances must equal).
    func recomputedBalances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        try await read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            var net: [String: [String: Int]] = [:]
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT currency, payer_id AS user_id, SUM(amount) AS amount FROM bills b WHERE household_id = ?
                        AND NOT EXISTS (SELECT 1 FROM bill_payers p WHERE p.bill_id = b.id)
                        GROUP BY currency, payer_id
                        UNION ALL
                        SELECT b.currency, p.user_id, SUM(p.amount) FROM bill_payers p JOIN bills b ON b.id = p.bill_id
                        WHERE b.household_id = ? GROUP BY b.currency, p.user_id
                        UNION ALL
                        SELECT b.currency, s.user_id, -SUM(s.amount) FROM bill_shares s JOIN bills b ON b.id = s.bill_id
                        WHERE b.household_id = ? GROUP BY b.currency, s.user_id
                        UNION ALL
                        SELECT currency, from_id, SUM(amount) FROM payments WHERE household_id = ? GROUP BY currency, from_id
                        UNION ALL
                        SELECT currency, to_id, -SUM(amount) FROM payments WHERE household_id = ? GROUP BY currency, to_id
                        """), arguments: [householdID, householdID, householdID, householdID, householdID])
            for row in rows {
                let currency: String = row["currency"]
                let user: String = row["user_id"]
                net[currency, default: [:]][user, default: 0] += row["amount"] as Int
            }
            return (members, net)
        }
    }

    /// Adds (`sign` 1) or takes back (-1) what a bill does to its members' running balances.
    static func adjustBalances(_ db: Database, _ stored: StoredBill, sign: Int) throws {
        try adjustBalances(db, stored.bill.householdId, stored.bill.currency, stored.balanceChange(sign: sign))
    }

    /// Moves members' running balances in one currency; a balance back at zero is removed.
    static func adjustBalances(_ db: Database, _ householdID: String, _ currency: String, _ change: [String: Int])
        throws
    {
        for (user, amount) in change where amount != 0 {
            try db.execute(
                sql: """
                    INSERT INTO member_balances (household_id, currency, user_id, net) VALUES (?, ?, ?, ?)
                    ON CONFLICT (household_id, currency, user_id) DO UPDATE SET net = net + excluded.net
                    """,
                arguments: [householdID, currency, user, amount])
        }
        try db.execute(
            sql: "DELETE FROM member_balances WHERE household_id = ? AND currency = ? AND net = 0",
            arguments: [householdID, currency])
    }
}
