import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func recordPayment(_ payment: PaymentRecord, notices: ChangeNotices<PaymentRecord>?) async throws {
        // Behind the household's lock the balances read below are the last committed ones and cannot move before
        // this payment commits: two payments racing on two replicas cannot both pass the limit.
        _ = try await write(locking: payment.householdId, reporting: notices) { db in
            // A former member with a balance here still settles it, either way.
            let members = try await db.settlingMembers(payment.householdId, asParty: payment.fromId)
            if !members.contains(payment.toId) {
                guard try await db.hasBalance(payment.householdId, payment.toId) else {
                    throw HouseholdError.notAMember
                }
            }
            let net = try await db.balances(payment.householdId)[payment.currency] ?? [:]
            let limit = PaymentRule.limit(payerNet: net[payment.fromId] ?? 0, payeeNet: net[payment.toId] ?? 0)
            guard payment.amount <= limit.payable else {
                throw HouseholdError.overpayment(limit, currency: payment.currency)
            }
            try await db.execute(
                """
                INSERT INTO payments (id, household_id, from_id, to_id, amount, currency, created_at)
                VALUES (\(payment.id), \(payment.householdId), \(payment.fromId), \(payment.toId), \(payment.amount),
                    \(payment.currency), \(payment.createdAt.storedMilliseconds))
                """)
            try await db.adjustBalances(
                payment.householdId, payment.currency, [payment.fromId: payment.amount, payment.toId: -payment.amount])
            try await db.record(payment.householdId, "payment", payment.fromId, "paid a roommate", payment.createdAt)
            return payment
        }
    }

    func balances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        // A hot read: its members and balances in one prepared statement, which sees one snapshot.
        guard !Self.holdsNUL(householdID) else { throw HouseholdError.notFound("The household") }
        var members: [String] = []
        var net: [String: [String: Int]] = [:]
        for row in try await read({ db in try await db.rows(MembersAndBalances(householdID: householdID)) }) {
            switch row {
            case .member(let user): members.append(user)
            case .balance(let user, let currency, let amount): net[currency, default: [:]][user] = amount
            }
        }
        // A former member with a balance still settles up; anyone else is not told the household exists.
        guard members.contains(userID) || net.values.contains(where: { $0[userID] != nil }) else {
            throw HouseholdError.notFound("The household")
        }
        return (members, net)
    }

    /// A household's members in the order they joined, then its running balances.
    struct MembersAndBalances: PostgresPreparedStatement {
        static let sql = """
            SELECT user_id, NULL AS currency, 0::bigint AS net, joined_at, seq FROM members WHERE household_id = $1
            UNION ALL
            SELECT user_id, currency, net, NULL, NULL FROM member_balances WHERE household_id = $1
            ORDER BY currency NULLS FIRST, joined_at, seq
            """
        let householdID: String

        enum Row {
            case member(String)
            case balance(user: String, currency: String, net: Int)
        }

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(householdID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (user, currency, net, _, _) = try row.decode((String, String?, Int64, Int64?, Int64?).self)
            guard let currency else { return .member(user) }
            return .balance(user: user, currency: currency, net: Int(net))
        }
    }

    func recomputedBalances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        try await write(.repeatableRead) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            var net: [String: [String: Int]] = [:]
            for row in try await db.namedRows(
                """
                SELECT currency, payer_id AS user_id, SUM(amount)::bigint AS amount FROM bills b
                WHERE household_id = \(householdID)
                    AND NOT EXISTS (SELECT 1 FROM bill_payers p WHERE p.bill_id = b.id)
                GROUP BY currency, payer_id
                UNION ALL
                SELECT b.currency, p.user_id, SUM(p.amount)::bigint FROM bill_payers p JOIN bills b ON b.id = p.bill_id
                WHERE b.household_id = \(householdID) GROUP BY b.currency, p.user_id
                UNION ALL
                SELECT b.currency, s.user_id, -SUM(s.amount)::bigint FROM bill_shares s JOIN bills b ON b.id = s.bill_id
                WHERE b.household_id = \(householdID) GROUP BY b.currency, s.user_id
                UNION ALL
                SELECT currency, from_id, SUM(amount)::bigint FROM payments WHERE household_id = \(householdID)
                GROUP BY currency, from_id
                UNION ALL
                SELECT currency, to_id, -SUM(amount)::bigint FROM payments WHERE household_id = \(householdID)
                GROUP BY currency, to_id
                """)
            {
                net[try row.get("currency"), default: [:]][try row.get("user_id"), default: 0] +=
                    try row.get("amount", as: Int.self)
            }
            return (members, net)
        }
    }
}

extension PostgresSession {
    /// Each member's running net per currency.
    func balances(_ householdID: String) async throws -> [String: [String: Int]] {
        var net: [String: [String: Int]] = [:]
        for row in try await namedRows(
            "SELECT currency, user_id, net FROM member_balances WHERE household_id = \(householdID)")
        {
            net[try row.get("currency"), default: [:]][try row.get("user_id")] = try row.get("net", as: Int.self)
        }
        return net
    }

    /// Adds (`sign` 1) or takes back (-1) what a bill does to its members' running balances.
    func adjustBalances(_ stored: StoredBill, sign: Int) async throws {
        try await adjustBalances(stored.bill.householdId, stored.bill.currency, stored.balanceChange(sign: sign))
    }

    /// Moves members' running balances in one currency; a balance back at zero is removed.
    func adjustBalances(_ householdID: String, _ currency: String, _ change: [String: Int]) async throws {
        // In a fixed order, so that two transactions moving the same balances cannot deadlock.
        for (user, amount) in change.sorted(by: { $0.key < $1.key }) where amount != 0 {
            try await execute(
                """
                INSERT INTO member_balances (household_id, currency, user_id, net)
                VALUES (\(householdID), \(currency), \(user), \(amount))
                ON CONFLICT (household_id, currency, user_id) DO UPDATE SET net = member_balances.net + excluded.net
                """)
        }
        try await execute(
            "DELETE FROM member_balances WHERE household_id = \(householdID) AND currency = \(currency) AND net = 0")
    }
}
